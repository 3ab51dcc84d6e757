import 'reflect-metadata';
import { FieldDefinition } from '../fields/field-definition';
import { indexedColumns } from './record-entity';

describe('indexedColumns (the `indexed` option of a field)', () => {
  const field = (type: FieldDefinition['type'], indexed: FieldDefinition['indexed']): FieldDefinition => ({
    name: 'amount',
    type,
    nullable: true,
    indexed,
  });

  it('indexes the column of a scalar field, and nothing without the option', () => {
    expect(indexedColumns({ ...field('NUMBER', true), name: 'employees' })).toEqual(['employees']);
    expect(indexedColumns(field('NUMBER', undefined))).toEqual([]);
  });

  it('indexes the named sub-fields of a composite', () => {
    expect(indexedColumns(field('CURRENCY', ['amountMicros']))).toEqual(['amountAmountMicros']);
  });

  it('refuses `true` on a composite and a sub-field it does not have, naming the sub-fields', () => {
    expect(() => indexedColumns(field('CURRENCY', true))).toThrow(/amountMicros, currencyCode/);
    expect(() => indexedColumns(field('CURRENCY', ['amount']))).toThrow(/indexed names the sub-fields/);
  });
});

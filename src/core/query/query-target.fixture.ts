import { QueryError } from '../errors/query-error';
import { ColumnRef, QueryTarget } from '../model/column-ref';

/** A small collection of people for the specs of the query compiler (no database, no catalog). */
const columns: Record<string, ColumnRef> = {
  id: { path: 'id', column: 'id', type: 'UUID', nullable: false },
  name: { path: 'name', column: 'name', type: 'TEXT', nullable: false },
  employees: { path: 'employees', column: 'employees', type: 'NUMBER', nullable: true },
  createdAt: { path: 'createdAt', column: 'createdAt', type: 'DATE_TIME', nullable: false },
  deletedAt: { path: 'deletedAt', column: 'deletedAt', type: 'DATE_TIME', nullable: true },
  'name.firstName': { path: 'name.firstName', column: 'nameFirstName', type: 'TEXT', nullable: true },
};

export const peopleTarget: QueryTarget = {
  objectName: 'person',
  plural: 'people',
  table: 'person',
  resolve: (path) => {
    const ref = columns[path.join('.')];
    if (!ref) throw new QueryError(`field '${path.join('.')}' does not exist in 'person' object`);
    return ref;
  },
};

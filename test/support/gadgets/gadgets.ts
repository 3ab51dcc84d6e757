import { Module } from '@nestjs/common';
import type { CollectionRegistration } from '../../../src/collections';
import { RecordEntity } from '../../../src/core/database/record-entity';
import { defineCollection } from '../../../src/core/model/collection-definition';
import { createCrudController } from '../../../src/core/rest/crud-controller.factory';
import { Gadget, GadgetForResponse, GadgetForUpdate } from './gadget.dto';

@RecordEntity({ table: 'gadget', fields: Gadget })
export class GadgetEntity {}

export const gadgets = defineCollection({
  plural: 'gadgets',
  singular: 'gadget',
  pascal: 'Gadget',
  pascalPlural: 'Gadgets',
  description: 'Gadgets: a collection declared only in the tests (docs/development.md: adding a collection)',
  entity: GadgetEntity,
  create: Gadget,
  update: GadgetForUpdate,
  response: GadgetForResponse,
  labelIdentifier: 'name',
  duplicateCriteria: [['name']],
  timeline: false,
});

export class GadgetsController extends createCrudController(gadgets) {}

@Module({ controllers: [GadgetsController] })
export class GadgetsModule {}

export const GADGETS: CollectionRegistration = { definition: gadgets, module: GadgetsModule };

/** Field decorators: one per field, carrying validation, OpenAPI and storage together. */
export * from './scalar-fields';
export * from './composite-fields';
export { DeclaredField } from './define-field';
export { FieldDefinition } from './field-definition';

export type { ValidationIssue, ValidationIssueCode, ValidationResult } from './issues.js';
export type { SchemaRevision } from './revision-definition.js';
export { getValidators, type McpValidators } from './validators.js';

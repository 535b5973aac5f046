import type { Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';

/** The subset of a JSON Schema this pass reads and writes. */
export interface SchemaLike {
  type?: string | string[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  items?: SchemaLike;
  properties?: Record<string, SchemaLike>;
  required?: string[];
  [keyword: string]: unknown;
}

/** One class-validator rule of a property, as the pass needs it. */
export interface PropertyRule {
  name: string;
  constraints: unknown[];
  each: boolean;
}

/** The class-validator rules of a class, by property (own and inherited). */
export function validationRulesOf(target: Type<unknown>): Map<string, PropertyRule[]> {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
  const rules = new Map<string, PropertyRule[]>();
  for (const metadata of metadatas) {
    if (!metadata.name) continue;
    const list = rules.get(metadata.propertyName) ?? [];
    list.push({ name: metadata.name, constraints: metadata.constraints ?? [], each: metadata.each === true });
    rules.set(metadata.propertyName, list);
  }
  return rules;
}

const typesOf = (schema: SchemaLike): string[] =>
  Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];

/**
 * Writes into `schema` what a class-validator rule enforces, so that the document promises what the
 * validation pipe refuses (the validator is the truth: it wins over a hand-written value). Rules
 * without a JSON Schema equivalent (custom validators, case-insensitive patterns) are left to the
 * property's description.
 */
export function applyRule(schema: SchemaLike, rule: PropertyRule): void {
  if (rule.each) {
    if (schema.items && typeof schema.items === 'object' && !('$ref' in schema.items))
      applyRule(schema.items, { ...rule, each: false });
    return;
  }
  const [first, second] = rule.constraints;
  switch (rule.name) {
    case 'isInt':
      schema.type = Array.isArray(schema.type)
        ? schema.type.map((type) => (type === 'number' ? 'integer' : type))
        : schema.type === 'number' || schema.type === undefined
          ? 'integer'
          : schema.type;
      return;
    case 'matches':
      // JSON Schema patterns have no flags: a flagged expression is not the same rule.
      if (first instanceof RegExp && first.flags === '' && !second) schema.pattern = first.source;
      else if (typeof first === 'string' && !second) schema.pattern = first;
      return;
    case 'minLength':
      if (typeof first === 'number') schema.minLength = first;
      return;
    case 'maxLength':
      if (typeof first === 'number') schema.maxLength = first;
      return;
    case 'isLength':
      if (typeof first === 'number') schema.minLength = first;
      if (typeof second === 'number') schema.maxLength = second;
      return;
    case 'isNotEmpty':
      if (typesOf(schema).includes('string') && schema.minLength === undefined) schema.minLength = 1;
      return;
    case 'min':
      if (typeof first === 'number') schema.minimum = first;
      return;
    case 'max':
      if (typeof first === 'number') schema.maximum = first;
      return;
    case 'isIn':
      if (Array.isArray(first) && schema.enum === undefined) schema.enum = [...(first as unknown[])];
      return;
    default:
      return;
  }
}

/** Applies every rule of `rules` to the matching property of an object schema. */
export function applyRulesToObjectSchema(schema: SchemaLike, rules: Map<string, PropertyRule[]>): void {
  for (const [property, list] of rules) {
    const propertySchema = schema.properties?.[property];
    if (!propertySchema) continue;
    // @IsOptional(): the pipe accepts the request without it, whatever the swagger decorator says.
    if (list.some((rule) => rule.name === 'isOptional') && schema.required) {
      schema.required = schema.required.filter((name) => name !== property);
      if (schema.required.length === 0) delete schema.required;
    }
    if ('$ref' in propertySchema) continue;
    for (const rule of list) applyRule(propertySchema, rule);
  }
}

import { isUuid } from '../uuid.js';
import {
  type ASTNode,
  type DocumentNode,
  type GraphQLError,
  GraphQLID,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isInputObjectType,
  isListType,
  isNonNullType,
  Kind,
  TypeInfo,
  typeFromAST,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { RequestValidationError, type ValidationIssue } from '../errors.js';
import { toGraphQLError } from './format-error.js';

/**
 * Every id this service hands out is a UUID, and the subgraphs compare ids with `uuid` columns: an
 * `ID` argument that is not one (`product(id: "x")`) would fail in PostgreSQL and come back as a masked
 * internal error. Subgraphs refuse it before executing, with the 422 `uuid_parsing` item the REST
 * routes answer for the same value (they check ids at the edge: rest-adapter/v1/validation.ts).
 */
const MESSAGE = 'Input should be a valid UUID';

interface Plan {
  /** The first literal id of the document that is not a UUID (a document's literals never change). */
  literal?: ValidationIssue;
  /** The variables whose type holds an `ID` somewhere, with that type. */
  variables: { name: string; type: GraphQLInputType }[];
}

const plans = new WeakMap<DocumentNode, Plan>();

/** A 422 error when an `ID` in `document`'s literals or in `variables` is not a UUID, else undefined. */
export function idInputError(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables?: Record<string, unknown>,
): GraphQLError | undefined {
  let plan = plans.get(document);
  if (!plan) {
    plan = planOf(schema, document);
    plans.set(document, plan);
  }
  const issues: ValidationIssue[] = plan.literal ? [plan.literal] : [];
  for (const { name, type } of plan.variables)
    if (variables && name in variables) checkValue(type, variables[name], ['body', 'variables', name], issues);
  return issues.length ? toGraphQLError(new RequestValidationError(issues.slice(0, 10))) : undefined;
}

function planOf(schema: GraphQLSchema, document: DocumentNode): Plan {
  const plan: Plan = { variables: [] };
  const typeInfo = new TypeInfo(schema);
  // Where the visitor is, for the issue's `loc`: argument and input field names, list indices.
  const path: (string | number)[] = [];
  const entered: boolean[] = [];
  const isValue = (node: ASTNode) =>
    node.kind === Kind.STRING || node.kind === Kind.INT || node.kind === Kind.LIST || node.kind === Kind.OBJECT;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      enter(node, key) {
        let pushed = true;
        if (node.kind === Kind.ARGUMENT || node.kind === Kind.OBJECT_FIELD) path.push(node.name.value);
        else if (typeof key === 'number' && isValue(node)) path.push(key);
        else pushed = false;
        entered.push(pushed);
        if (node.kind === Kind.VARIABLE_DEFINITION) {
          const type = typeFromAST(schema, node.type as never) as GraphQLInputType | undefined;
          if (type && holdsId(type)) plan.variables.push({ name: node.variable.name.value, type });
        }
        if ((node.kind === Kind.STRING || node.kind === Kind.INT) && !plan.literal) {
          const expected = typeInfo.getInputType();
          if (expected && getNamedType(expected) === GraphQLID && !isUuid(node.value))
            plan.literal = { type: 'uuid_parsing', loc: ['body', 'query', ...path], msg: MESSAGE, input: node.value };
        }
      },
      leave() {
        if (entered.pop()) path.pop();
      },
    }),
  );
  return plan;
}

const holding = new WeakMap<object, boolean>();

/** Whether an `ID` can appear anywhere in a value of `type` (input objects may nest, or be recursive). */
function holdsId(type: GraphQLInputType): boolean {
  const named = getNamedType(type);
  if (!isInputObjectType(named)) return named === GraphQLID;
  let known = holding.get(named);
  if (known === undefined) {
    known = reachesId(named, new Set());
    holding.set(named, known);
  }
  return known;
}

function reachesId(type: GraphQLInputType, seen: Set<object>): boolean {
  const named = getNamedType(type);
  if (!isInputObjectType(named)) return named === GraphQLID;
  if (seen.has(named)) return false;
  seen.add(named);
  return Object.values(named.getFields()).some(field => reachesId(field.type, seen));
}

function checkValue(type: GraphQLInputType, value: unknown, loc: (string | number)[], issues: ValidationIssue[]): void {
  if (value === null || value === undefined) return;
  if (isNonNullType(type)) {
    checkValue(type.ofType, value, loc, issues);
  } else if (isListType(type)) {
    // A single value where a list is expected is a list of one (GraphQL input coercion).
    if (Array.isArray(value))
      for (const [i, item] of value.entries()) checkValue(type.ofType, item, [...loc, i], issues);
    else checkValue(type.ofType, value, loc, issues);
  } else if (type === GraphQLID) {
    if (!(typeof value === 'string' && isUuid(value)))
      issues.push({ type: 'uuid_parsing', loc, msg: MESSAGE, input: value });
  } else if (isInputObjectType(type) && typeof value === 'object' && !Array.isArray(value)) {
    for (const field of Object.values(type.getFields()))
      if (holdsId(field.type))
        checkValue(field.type, (value as Record<string, unknown>)[field.name], [...loc, field.name], issues);
  }
}

import {
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  getNullableType,
  GraphQLError,
  type GraphQLField,
  type GraphQLNamedType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

export interface QueryLimits {
  /** Deepest field nesting allowed (introspection excluded). */
  maxDepth: number;
  /** Largest estimated number of resolved objects (lists count `limit`, or 10 when unknown, times their children). */
  maxCost: number;
}

const DEFAULT_LIST_SIZE = 10;
const MAX_LIST_SIZE = 100;

interface Walk {
  depth: number;
  cost: number;
}

/**
 * Rejects expensive documents during validation, before anything executes (docs/reliability.md#graphql-limits).
 * Computed on the document alone, so Apollo's validated-document cache keeps the result.
 */
export function queryLimitRules(limits: QueryLimits): ValidationRule[] {
  const rule: ValidationRule = (context: ValidationContext) => ({
    OperationDefinition(operation) {
      const fragments = new Map<string, FragmentDefinitionNode>();
      for (const def of context.getDocument().definitions)
        if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
      const schema = context.getSchema();
      const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
      if (!root) return;
      const walk = measure(operation.selectionSet, root, fragments, 1, new Set());
      if (walk.depth > limits.maxDepth) {
        context.reportError(
          new GraphQLError(`Query depth ${walk.depth} exceeds the maximum of ${limits.maxDepth}.`, {
            nodes: [operation],
            extensions: { code: 'QUERY_TOO_DEEP' },
          }),
        );
      }
      if (walk.cost > limits.maxCost) {
        context.reportError(
          new GraphQLError(`Query cost ${walk.cost} exceeds the maximum of ${limits.maxCost}.`, {
            nodes: [operation],
            extensions: { code: 'QUERY_TOO_COSTLY' },
          }),
        );
      }
    },
  });
  return [rule];
}

function measure(
  selectionSet: SelectionSetNode,
  parent: GraphQLNamedType,
  fragments: Map<string, FragmentDefinitionNode>,
  multiplier: number,
  visiting: Set<string>,
  carriedListSize?: number,
): Walk {
  let depth = 0;
  let cost = 0;
  for (const selection of selectionSet.selections) {
    let inner: Walk | undefined;
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value.startsWith('__')) continue;
      inner = measureField(selection, parent, fragments, multiplier, visiting, carriedListSize);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      inner = measure(selection.selectionSet, parent, fragments, multiplier, visiting, carriedListSize);
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (!fragment || visiting.has(name)) continue; // cycles are reported by the standard rules
      visiting.add(name);
      inner = measure(fragment.selectionSet, parent, fragments, multiplier, visiting, carriedListSize);
      visiting.delete(name);
    }
    depth = Math.max(depth, inner.depth);
    cost += inner.cost;
  }
  return { depth, cost };
}

function measureField(
  field: FieldNode,
  parent: GraphQLNamedType,
  fragments: Map<string, FragmentDefinitionNode>,
  multiplier: number,
  visiting: Set<string>,
  carriedListSize?: number,
): Walk {
  const definition: GraphQLField<unknown, unknown> | undefined =
    isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[field.name.value] : undefined;
  // NOTE: scalar leaves are free; what costs is resolving objects (rows, nested lookups) per list item.
  if (!field.selectionSet || !definition) return { depth: 1, cost: 0 };
  const returns = getNullableType(definition.type);
  const requested = literalLimit(field);
  // A page field (`organizations(limit: 50) { items { … } }`) sizes the list one level down.
  const size = isListType(returns) ? (requested ?? carriedListSize ?? DEFAULT_LIST_SIZE) : 1;
  const carry = isListType(returns) ? undefined : requested;
  const inner = measure(
    field.selectionSet,
    getNamedType(definition.type),
    fragments,
    multiplier * size,
    visiting,
    carry,
  );
  return { depth: inner.depth + 1, cost: multiplier + inner.cost };
}

function literalLimit(field: FieldNode): number | undefined {
  const limit = field.arguments?.find(a => a.name.value === 'limit' || a.name.value === 'first');
  if (!limit) return undefined;
  // A variable's value is unknown at validation time: assume the largest page.
  return limit.value.kind === Kind.INT ? Math.min(Number(limit.value.value), MAX_LIST_SIZE) : MAX_LIST_SIZE;
}

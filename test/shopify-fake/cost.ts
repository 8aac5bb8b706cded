// Shopify's calculated query cost: the requested cost from the operation alone, the actual cost from the operation
// and its result. Rules from shopify.dev "GraphQL Admin API rate limits": scalars and enums 0, objects 1,
// interfaces and unions the maximum over their possible types, connections 2 plus page size times the node cost,
// mutations 10.
import {
  getArgumentValues,
  getNamedType,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

export const MUTATION_COST = 10;
export const SINGLE_QUERY_MAX_COST = 1000;

interface CostContext {
  schema: GraphQLSchema;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  /** "requested" prices what was asked for; "actual" walks the result and prices only what came back. */
  mode: "requested" | "actual";
}

type CollectedField = { node: FieldNode; owner: GraphQLCompositeType };

export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  result?: { data?: Record<string, unknown> | null },
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const root = schema.getRootType(operation.operation);
  if (!root) return 0;
  const ctx: CostContext = { schema, fragments, variables, mode: result ? "actual" : "requested" };
  const fields = collectFields(operation.selectionSet, root, ctx, (condition) => applies(condition, root));
  let total = 0;
  for (const [key, field] of fields) {
    // A mutation is charged its flat cost whether or not it succeeded; its payload is not charged on top.
    if (operation.operation === "mutation")
      total += field.node.name.value.startsWith("__") ? 0 : MUTATION_COST;
    else total += fieldCost(field, ctx, result ? result.data?.[key] : undefined);
  }
  return total;
}

function applies(condition: GraphQLCompositeType, type: GraphQLObjectType): boolean {
  if (condition.name === type.name) return true;
  if (isInterfaceType(condition)) return type.getInterfaces().some((iface) => iface.name === condition.name);
  if (isUnionType(condition)) return condition.getTypes().some((member) => member.name === type.name);
  return false;
}

/** Fields by response key, each with the type it was selected on; fragments filtered by `include`. */
function collectFields(
  selectionSet: SelectionSetNode,
  owner: GraphQLCompositeType,
  ctx: CostContext,
  include: (condition: GraphQLCompositeType) => boolean,
  into = new Map<string, CollectedField>(),
): Map<string, CollectedField> {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      if (!into.has(key)) into.set(key, { node: selection, owner });
      continue;
    }
    const fragment =
      selection.kind === Kind.FRAGMENT_SPREAD ? ctx.fragments.get(selection.name.value) : selection;
    if (!fragment) continue;
    const conditionName = fragment.typeCondition?.name.value;
    const condition: GraphQLNamedType | undefined = conditionName ? ctx.schema.getType(conditionName) : owner;
    if (condition && isCompositeType(condition) && include(condition)) {
      collectFields(fragment.selectionSet, condition, ctx, include, into);
    }
  }
  return into;
}

function selectionCost(
  selectionSet: SelectionSetNode,
  type: GraphQLCompositeType,
  ctx: CostContext,
  value: unknown,
): number {
  if (ctx.mode === "requested" && isAbstractType(type)) {
    // Without a result the runtime type is unknown: price the most expensive possible type.
    return Math.max(
      0,
      ...ctx.schema.getPossibleTypes(type).map((t) => selectionCost(selectionSet, t, ctx, value)),
    );
  }
  // With a result, the keys present are exactly the ones that applied to the runtime type.
  const include = isObjectType(type) ? (c: GraphQLCompositeType) => applies(c, type) : () => true;
  let total = 0;
  for (const [key, field] of collectFields(selectionSet, type, ctx, include)) {
    if (ctx.mode === "requested") total += fieldCost(field, ctx, undefined);
    else if (isRecord(value) && key in value) total += fieldCost(field, ctx, value[key]);
  }
  return total;
}

function fieldCost({ node, owner }: CollectedField, ctx: CostContext, value: unknown): number {
  if (node.name.value.startsWith("__") || isUnionType(owner) || !node.selectionSet) return 0;
  const definition = owner.getFields()[node.name.value];
  if (!definition) return 0;
  const type = getNamedType(definition.type);
  if (!isCompositeType(type)) return 0;
  if (ctx.mode === "actual" && (value === null || value === undefined)) return 0;
  if (isConnection(type)) {
    let size = 0;
    try {
      const args = getArgumentValues(definition, node, ctx.variables);
      const first = args.first ?? args.last;
      size = typeof first === "number" ? first : 0;
    } catch {
      size = 0; // invalid arguments fail execution anyway
    }
    return 2 + connectionItemsCost(node.selectionSet, type, ctx, value, size);
  }
  if (ctx.mode === "actual" && Array.isArray(value)) {
    const selectionSet = node.selectionSet;
    return 1 + Math.max(0, ...value.map((item) => selectionCost(selectionSet, type, ctx, item)));
  }
  return 1 + selectionCost(node.selectionSet, type, ctx, value);
}

function isConnection(type: GraphQLCompositeType): type is GraphQLObjectType {
  if (!isObjectType(type) || !type.name.endsWith("Connection")) return false;
  const fields = type.getFields();
  return "edges" in fields && "pageInfo" in fields;
}

/** `edges { node }` and `nodes` are two views of the same items: charge the dearer one, not both. */
function connectionItemsCost(
  selectionSet: SelectionSetNode,
  connection: GraphQLObjectType,
  ctx: CostContext,
  value: unknown,
  size: number,
): number {
  let edgesCost = 0;
  let nodesCost = 0;
  for (const [key, field] of collectFields(selectionSet, connection, ctx, () => true)) {
    const definition = connection.getFields()[field.node.name.value];
    const itemType = definition && getNamedType(definition.type);
    const itemSelection = field.node.selectionSet;
    if (!itemType || !isCompositeType(itemType) || !itemSelection) continue;
    const name = field.node.name.value;
    if (name !== "edges" && name !== "nodes") continue; // pageInfo is free
    // An edge object itself is free; a node costs 1 plus its selection.
    const perItem = (item: unknown) =>
      (name === "nodes" ? 1 : 0) + selectionCost(itemSelection, itemType, ctx, item);
    const cost =
      ctx.mode === "requested"
        ? size * perItem(undefined)
        : isRecord(value) && Array.isArray(value[key])
          ? (value[key] as unknown[]).reduce<number>((sum, item) => sum + perItem(item), 0)
          : 0;
    if (name === "edges") edgesCost = Math.max(edgesCost, cost);
    else nodesCost = Math.max(nodesCost, cost);
  }
  return Math.max(edgesCost, nodesCost);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

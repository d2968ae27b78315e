// Name resolution: which dataset field or query label a name means, in the order each clause looks them up.
import { isMultivalued, type Field } from '../catalog/schema.js';
import { node, type Expr, type FieldRef, type Item } from './ast.js';
import { QueryLangError } from './errors.js';
import { plain, type Analyzer } from './expr-info.js';
import { sizeOf, type NodeBudget } from './limits-check.js';
import { MAX_NODES } from './limits.js';
import type { TechnicalColumn } from './technical.js';
import type { ClauseName } from './types.js';

/** Words that must be back-quoted to be used as names (supplement 5, v2.1). */
export const RESERVED_WORDS: ReadonlySet<string> = new Set(
  (
    'and as asc avg by count date_format day dayofweek desc distinct equi false group hour ifnull or limit lower ' +
    'max millisecond min minute month not null quarter range search second select sum top true upper where year'
  ).split(' '),
);

type Source = 'field' | 'select' | 'group';

/**
 * Where a name is looked up first: a select label in order_by (as in SQL), a group_by label
 * in select (so `group_by=lower(city) as city&select=city` means the group key), the dataset
 * field everywhere else.
 */
const LOOKUP_ORDER = {
  where: ['field', 'select', 'group'],
  group_by: ['field', 'select'],
  select: ['group', 'field', 'select'],
  order_by: ['select', 'group', 'field'],
} as const satisfies Record<ClauseName, readonly Source[]>;

/** The field a name designates: exact, without the optional `default.` template, then ignoring case. */
export function findField(fields: readonly Field[], name: string): Field | null {
  const bare = name.startsWith('default.') ? name.slice('default.'.length) : name;
  return (
    fields.find((f) => f.name === name) ??
    fields.find((f) => f.name === bare) ??
    fields.find((f) => f.name.toLowerCase() === bare.toLowerCase()) ??
    null
  );
}

/** The names and labels of one query, shared by the analyzers of its clauses. */
export class QueryScope<A extends Analyzer = Analyzer> {
  /** Multivalued fields grouped by element: single values in select and order_by. */
  readonly unnested = new Set<string>();
  private readonly targets = new Map<Item, Expr>();
  private readonly resolving = new Set<Item>();
  readonly analyzers = new Map<ClauseName, A>();

  constructor(
    readonly fields: readonly Field[],
    private readonly selectLabels: ReadonlyMap<string, Item>,
    private readonly groupLabels: ReadonlyMap<string, Item>,
    private readonly budget: NodeBudget,
    private readonly technical: readonly TechnicalColumn[] = [],
  ) {}

  /** Resolves `ref` as seen from `clause`; throws `Unknown field: x` when nothing matches. */
  resolve(ref: FieldRef, clause: ClauseName): Expr {
    if (!ref.quoted && RESERVED_WORDS.has(ref.name.toLowerCase())) {
      throw new QueryLangError(
        `${ref.name} is a reserved keyword: write it in back quotes (\`${ref.name}\`)`,
      );
    }
    for (const source of LOOKUP_ORDER[clause]) {
      const found = this.lookup(ref, source, clause);
      if (found) return found;
    }
    throw new QueryLangError(`Unknown field: ${ref.name}`);
  }

  private lookup(ref: FieldRef, source: Source, clause: ClauseName): Expr | null {
    if (source === 'field') {
      const field = findField(this.fields, ref.name);
      return field ? this.fieldNode(field, ref, clause) : this.technicalNode(ref, clause);
    }
    const item = (source === 'select' ? this.selectLabels : this.groupLabels).get(ref.name);
    return item ? this.spend(this.analyzeItem(item, source === 'select' ? 'select' : 'group_by')) : null;
  }

  private fieldNode(field: Field, ref: FieldRef, clause: ClauseName): Expr {
    const analyzer = this.analyzers.get(clause)!;
    const outer = clause === 'select' || clause === 'order_by';
    const multivalued = isMultivalued(field) && !(outer && this.unnested.has(field.name));
    return analyzer.record(node.field(field.name, false, ref.span), {
      type: field.type,
      multivalued,
      aggregate: false,
      field,
      entry: null,
      args: [],
    });
  }

  /** A technical field of that name (technical.ts), standing for its SQL; null when none. */
  private technicalNode(ref: FieldRef, clause: ClauseName): Expr | null {
    const column = this.technical.find((t) => t.name === ref.name.toLowerCase());
    if (!column) return null;
    if ('refused' in column) throw new QueryLangError(column.refused);
    const info = { ...plain(column.type), sql: column.sql };
    return this.analyzers.get(clause)!.record(node.field(column.name, false, ref.span), info);
  }

  /** The analyzed expression of a select or group_by item, analyzed once in the clause that defines it. */
  analyzeItem(item: Item, clause: ClauseName): Expr {
    const known = this.targets.get(item);
    if (known) return known;
    if (this.resolving.has(item)) throw new QueryLangError(`Circular reference to label ${item.label}`);
    this.resolving.add(item);
    try {
      const target = this.analyzers.get(clause)!.analyze(item.expr);
      this.targets.set(item, target);
      return target;
    } catch (error) {
      throw error instanceof QueryLangError ? error.inClause(clause) : error;
    } finally {
      this.resolving.delete(item);
    }
  }

  /** Each reuse of a label copies its expression into the SQL: it counts against the node budget. */
  private spend(target: Expr): Expr {
    this.budget.used += sizeOf(target);
    if (this.budget.used > MAX_NODES)
      throw new QueryLangError(`Query too complex: more than ${MAX_NODES} terms`);
    return target;
  }
}

// The catalog's tables of counts, one per facet field, defined with the catalog table and counted
// again when its rows change: a single-valued field's is a table of value counts as a dataset's
// (`field, _count`: src/odsql/value-counts.ts answers from it), a multivalued field's counts each
// element (`value, _count`), which facet-statements.ts reads for a facet of that field alone under
// no condition. The catalog's keyword facet at 100,000 datasets grouped 600,000 elements at each
// request (50-200 ms on 2 shared cores); its table holds their 100,104 counts.
import { isMultivalued, VALUE_COUNT_COLUMN, type Field } from '../../../catalog/schema.js';
import { quoteIdentifier } from '../../../sql/quoting.js';

/** The name of the table of counts of `field` beside the table `table`. */
const countsTable = (table: string, field: string): string => `${table}__counts__${field}`;

/** The tables of counts of a catalog's facet fields, by field, and the statements that fill them. */
export interface CatalogCounts {
  readonly valueCounts: ReadonlyMap<string, string>;
  readonly elementCounts: ReadonlyMap<string, string>;
  /** The statements (re)creating every table from the catalog table's rows as they are. */
  readonly statements: readonly string[];
}

/** The tables of counts of the facet fields of the catalog table `table`. */
export function catalogCounts(table: string, fields: readonly Field[]): CatalogCounts {
  const valueCounts = new Map<string, string>();
  const elementCounts = new Map<string, string>();
  const statements: string[] = [];
  const [source, count] = [quoteIdentifier(table), quoteIdentifier(VALUE_COUNT_COLUMN)];
  for (const field of fields.filter((f) => f.annotations.facet !== undefined)) {
    const [name, column] = [countsTable(table, field.name), quoteIdentifier(field.name)];
    const create = `CREATE OR REPLACE TABLE ${quoteIdentifier(name)} AS`;
    if (isMultivalued(field)) {
      elementCounts.set(field.name, name);
      statements.push(`${create} SELECT v, count(*) AS ${count}
        FROM (SELECT unnest(${column}) AS v FROM ${source}) GROUP BY v ORDER BY v NULLS LAST`);
    } else {
      valueCounts.set(field.name, name);
      statements.push(`${create} SELECT ${column}, count(*) AS ${count}
        FROM ${source} GROUP BY ${column} ORDER BY ${column} NULLS LAST`);
    }
  }
  return { valueCounts, elementCounts, statements };
}

/** The facet statement (s, v, n) of the elements of a multivalued field, from its table of counts. */
export function elementCountsSql(table: string): string {
  return `SELECT 0 AS s, CAST(v AS VARCHAR) AS v, ${quoteIdentifier(VALUE_COUNT_COLUMN)} AS n FROM ${quoteIdentifier(table)}`;
}

// The hidden columns a compiled query adds when asked (withRecordId, withGroupCount), and the
// split of a result row into its output values and them: no caller names these columns.
import { RECORD_ID_COLUMN } from '../catalog/schema.js';

/** The record id column that ungrouped rows end with (withRecordId). */
export const RECORD_ID_OUTPUT = RECORD_ID_COLUMN;

/** The number of groups, on every row of a grouped query (withGroupCount). */
export const GROUP_COUNT_OUTPUT = '_group_count';

/** A result row's output values, and the hidden values it carried (undefined: not asked). */
export interface SplitRow<T> {
  readonly values: Record<string, T>;
  readonly recordId: T | undefined;
  readonly groupCount: T | undefined;
}

/** Splits a row of a compiled query into its output values and its hidden columns. */
export function splitRow<T>(row: Readonly<Record<string, T>>): SplitRow<T> {
  const { [RECORD_ID_OUTPUT]: recordId, [GROUP_COUNT_OUTPUT]: groupCount, ...values } = row;
  return { values, recordId, groupCount };
}

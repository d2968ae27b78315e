// The JSON shape of output values (supplement 2), in the spelling of the context's dialect.
import type { CompileContext } from './dialect/dialect.js';
import type { ValueType } from './types.js';

/** SQL of a value in its output shape: JSON shapes for 'json' and 'text', storage types for 'native'. */
export function presentValue(sql: string, type: ValueType, ctx: CompileContext): string {
  return ctx.output === 'native' ? sql : ctx.dialect.present[type](sql, ctx);
}

// An export refused before its first byte because the request does not meet its format's needs
// (a geo field, a known coordinate system, a row limit, the fields GPX names, a known format).
// The API's error table answers it as a 400 in the public wording (src/http/errors.ts).

/** A request its export format cannot serve: `parameter` names the one at fault, if one is. */
export class ExportRefused extends Error {
  constructor(
    readonly parameter: string | null,
    readonly detail: string,
  ) {
    super(parameter === null ? detail : `${parameter}: ${detail}`);
  }
}

/** The refusal of a value of `parameter`. */
export const refusedParameter = (parameter: string, detail: string): ExportRefused =>
  new ExportRefused(parameter, detail);

/** The refusal of a format name the operation does not export. */
export const unknownFormat = (format: string): ExportRefused =>
  refusedParameter('format', `${format} is not an export format of this operation.`);

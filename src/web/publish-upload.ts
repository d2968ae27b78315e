// The account page's upload form (multipart/form-data), streamed to a file as it arrives, never
// held whole in memory: at most `maxBytes` of file (past it a 413, checked on Content-Length
// before reading and on the bytes as they come), one file, a few small fields. The form's CSRF
// token must come before the file (a browser sends the fields in the form's order), so that no
// byte of a forged upload is written. The file's name is only shown: it is stored under a fixed
// name with its extension (which tells ingest the format), so no name reaches outside the folder.
import type http from 'node:http';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { PublishError } from './publish-errors.js';

/** Room for the form's other fields and part headers beside the file, in bytes. */
const FORM_OVERHEAD = 64 * 1024;

/** The message of a form whose token is not its session's. */
export const EXPIRED =
  'This form has expired: it was sent again, from another page, or after signing out. Try again.';

export interface UploadLimits {
  readonly maxBytes: number;
  /** The folder the file is written into, as `<fileBase><extension>`. */
  readonly dir: string;
  readonly fileBase: string;
  /** Whether the form's `_csrf` field is the session's token. */
  tokenValid(token: string): boolean;
}

export interface UploadedFile {
  readonly path: string;
  /** The name the browser gave, without folders or control characters: for messages only. */
  readonly name: string;
  readonly bytes: number;
}

export interface UploadForm {
  readonly fields: Readonly<Record<string, string>>;
  /** The `file` field's file, or null when none was chosen. */
  readonly file: UploadedFile | null;
}

/** The file name a browser sent, as shown: its last path segment, printable, at most 200 characters. */
export function shownName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  return base.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200) || 'upload';
}

/** The extension of a sent file name, if it is letters and digits (`.csv`, `.geojson`), else ''. */
export function safeExtension(name: string): string {
  return /\.([A-Za-z0-9]{1,10})$/.exec(shownName(name))?.[0].toLowerCase() ?? '';
}

const tooLarge = (maxBytes: number): PublishError =>
  new PublishError(413, `The file is larger than the limit of ${maxBytes} bytes (--max-upload-size).`);

/** Reads the upload form of `request`, its file written into `limits.dir`. */
export function receiveUpload(request: http.IncomingMessage, limits: UploadLimits): Promise<UploadForm> {
  if (!/^multipart\/form-data\s*;/i.test(request.headers['content-type'] ?? ''))
    return Promise.reject(new PublishError(400, 'The upload form is sent as multipart/form-data.'));
  if (Number(request.headers['content-length'] ?? 0) > limits.maxBytes + FORM_OVERHEAD)
    return Promise.reject(tooLarge(limits.maxBytes));
  return new Promise((resolve, reject) => {
    const parser = busboy({
      headers: request.headers,
      limits: { fileSize: limits.maxBytes, files: 1, fields: 40, fieldSize: 64 * 1024, parts: 41 },
    });
    const fields = Object.create(null) as Record<string, string>;
    let tokenSeen = false;
    let file: UploadedFile | null = null;
    let writing: Promise<void> = Promise.resolve();
    let failed = false;
    const fail = (error: unknown): void => {
      if (failed) return;
      failed = true;
      // The rest of the body is read and dropped, so that the client gets the answer.
      request.unpipe(parser);
      request.resume();
      reject(error instanceof PublishError ? error : new PublishError(400, 'The form could not be read.'));
    };
    parser.on('field', (name, value) => {
      if (!(name in fields)) fields[name] = value;
      if (name === '_csrf') tokenSeen = limits.tokenValid(value);
    });
    parser.on('file', (name, stream, info) => {
      if (!tokenSeen) fail(new PublishError(403, EXPIRED));
      const filename = info.filename ?? '';
      if (failed || name !== 'file' || filename === '') {
        stream.resume();
        return;
      }
      const target = path.join(limits.dir, `${limits.fileBase}${safeExtension(filename)}`);
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
      stream.on('limit', () => fail(tooLarge(limits.maxBytes)));
      writing = pipeline(stream, createWriteStream(target)).then(() => {
        file = { path: target, name: shownName(filename), bytes };
      });
      writing.catch(fail);
    });
    for (const event of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const)
      parser.on(event, () => fail(new PublishError(400, 'The form has more fields than it should.')));
    parser.on('error', fail);
    request.on('error', fail);
    parser.on('close', () => {
      writing.then(() => {
        if (failed) return;
        if (!tokenSeen) return fail(new PublishError(403, EXPIRED));
        resolve({ fields, file });
      }, fail);
    });
    request.pipe(parser);
  });
}

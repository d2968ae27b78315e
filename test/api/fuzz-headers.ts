// Header cases of the fuzz (docs/access-control.md, Header rules): hostile Accept-Encoding
// values, two Host headers, an absolute URI as request target with a Host that agrees or not, on
// any request.
import fc from 'fast-check';
import type { Request } from './fuzz-params.js';

/** A request with the headers it is sent with (Host included; none: the client's own). */
export type HeaderedRequest = Request & {
  /** Name/value pairs, a name possibly repeated. */
  readonly headers?: readonly (readonly [string, string])[];
  /** Sent as an absolute URI naming this authority (`GET http://<authority>/path`). */
  readonly authority?: string;
};

const HOST = 'portal.test';

/** Accept-Encoding values: the probe's, and strings of the words and signs that make them up. */
const acceptEncoding = fc.oneof(
  fc.constantFrom(
    'identity;q=0',
    '*;q=0',
    'br;q=0,gzip;q=0',
    'garbage',
    'identity;q=0, gzip',
    'gzip;q=0, identity;q=0, *;q=0',
    '',
  ),
  fc.string({
    unit: fc.constantFrom(...'gzip', ...'br', 'identity', '*', ';', 'q=', '0', '.5', ', '),
    maxLength: 12,
  }),
);

const headerCase: fc.Arbitrary<Pick<HeaderedRequest, 'headers' | 'authority'>> = fc.oneof(
  acceptEncoding.map((value) => ({
    headers: [['Host', HOST] as const, ['Accept-Encoding', value] as const],
  })),
  fc.constant({ headers: [['Host', HOST] as const, ['Host', 'other.test'] as const] }),
  fc.constantFrom(HOST, 'other.test', `${HOST}:8080`).map((authority) => ({
    headers: [['Host', HOST] as const],
    authority,
  })),
);

/** `requests`, one in `every` sent with a header case. */
export function withHeaderCases(requests: fc.Arbitrary<Request>, every = 8): fc.Arbitrary<HeaderedRequest> {
  return fc.oneof(
    { weight: every - 1, arbitrary: requests },
    {
      weight: 1,
      arbitrary: fc.tuple(requests, headerCase).map(([request, headers]) => ({ ...request, ...headers })),
    },
  );
}

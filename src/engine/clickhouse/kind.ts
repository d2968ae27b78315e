// ClickHouse as an engine kind: the engine of each server a portal holds the credentials of
// (clickhouse.json), and the ClickHouse dialect its SQL is written in.
import { readClickHouseServers } from '../../catalog/clickhouse-servers.js';
import { clickhouseDialect } from '../../odsql/dialect/clickhouse/dialect.js';
import type { AttachedKind } from '../engine-kind.js';
import { ClickHouseEngine } from './engine.js';

export const clickhouseKind: AttachedKind = Object.freeze<AttachedKind>({
  name: 'clickhouse',
  dialect: clickhouseDialect,
  servers: readClickHouseServers,
  open: (url, credentials, options) => new ClickHouseEngine({ url, ...credentials, ...options }),
});

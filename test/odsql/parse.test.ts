// The grammar: every lexical form, precedence, spans, and frozen nodes.
import { expect } from 'chai';
import { childrenOf, type Expr } from '../../src/odsql/ast.js';
import { parseGroupBy, parseOrderBy, parseSelect, parseWhereClause } from '../../src/odsql/parse.js';

/** The tree without spans, for comparisons. */
const shape = (expr: unknown): unknown =>
  JSON.parse(JSON.stringify(expr, (k, v: unknown) => (k === 'span' ? undefined : v)));

/** Every node of a tree. */
function nodes(root: Expr): Expr[] {
  return [root, ...childrenOf(root).flatMap(nodes)];
}

describe('ODSQL grammar', () => {
  it('keywords in any case, spaces optional', () => {
    expect(shape(parseWhereClause('a=1 AnD NOT(b>2)Or c IS not NULL'))).to.deep.equal(
      shape(parseWhereClause('(a = 1 and not (b > 2)) or (c is not null)')),
    );
  });

  it('AND binds tighter than OR, NOT tighter than AND, comparisons tighter than NOT', () => {
    const tree = parseWhereClause('not a = 1 and b = 2 or c = 3') as any;
    expect(tree.kind).to.equal('logical');
    expect(tree.op).to.equal('or');
    expect(tree.operands[0].op).to.equal('and');
    expect(tree.operands[0].operands[0].kind).to.equal('not');
    expect(tree.operands[0].operands[0].operand.kind).to.equal('comparison');
  });

  it('arithmetic precedence and unary minus; a minus before a number is a negative number', () => {
    const tree = parseWhereClause('-a + 2 * -3 > 0') as any;
    expect(tree.left.op).to.equal('+');
    expect(tree.left.left.kind).to.equal('negate');
    expect(tree.left.right.op).to.equal('*');
    expect(tree.left.right.right).to.deep.include({ kind: 'number', value: -3 });
  });

  it('strings in single or double quotes, a backslash escaping any character', () => {
    expect(parseWhereClause("'it\\'s'")).to.deep.include({ kind: 'string', value: "it's" });
    expect(parseWhereClause('"say \\"hi\\""')).to.deep.include({ kind: 'string', value: 'say "hi"' });
    expect(parseWhereClause("'back\\\\slash'")).to.deep.include({ kind: 'string', value: 'back\\slash' });
    expect(parseWhereClause("''")).to.deep.include({ kind: 'string', value: '' });
  });

  it('numbers, booleans, null, date and geometry literals, quantities', () => {
    expect(parseWhereClause('12.5')).to.deep.include({ kind: 'number', value: 12.5 });
    expect(parseWhereClause('TRUE')).to.deep.include({ kind: 'boolean', value: true });
    expect(parseWhereClause('null').kind).to.equal('null');
    expect(parseWhereClause("DATE'2020/01/31'")).to.deep.include({ kind: 'date', text: '2020/01/31' });
    expect(parseWhereClause("date '2020-01-31T10:00:00+02:00'")).to.deep.include({
      text: '2020-01-31T10:00:00+02:00',
    });
    expect(parseWhereClause('geom\'{"type": "Point", "coordinates": [1, 2]}\'')).to.deep.include({
      kind: 'geometry',
      text: '{"type": "Point", "coordinates": [1, 2]}',
    });
    expect(parseWhereClause('10km')).to.deep.include({ kind: 'quantity', value: 10, unit: 'km' });
    expect(parseWhereClause('3M')).to.deep.include({ kind: 'quantity', value: 3, unit: 'M' });
  });

  it('names: plain, dotted (catalog templates), back-quoted; a field named date is a name', () => {
    expect(parseWhereClause('dcat.created')).to.deep.include({
      kind: 'field',
      name: 'dcat.created',
      quoted: false,
    });
    expect(parseWhereClause('`2020`')).to.deep.include({ kind: 'field', name: '2020', quoted: true });
    expect(parseWhereClause('`a \\` b`')).to.deep.include({ name: 'a ` b' });
    expect(shape(parseWhereClause("date > date'2020'"))).to.deep.equal({
      kind: 'comparison',
      op: '>',
      left: { kind: 'field', name: 'date', quoted: false },
      right: { kind: 'date', text: '2020' },
    });
  });

  it('comparison spellings: `:` is `=`, `<>` is `!=`', () => {
    expect((parseWhereClause('a : 1') as any).op).to.equal('=');
    expect((parseWhereClause('a <> 1') as any).op).to.equal('!=');
  });

  it('IN ranges with either bracket, .. or TO; IN lists; membership', () => {
    expect(parseWhereClause('a in ]1..5]')).to.deep.include({
      kind: 'in_range',
      lowInclusive: false,
      highInclusive: true,
    });
    expect(parseWhereClause('a IN [1 TO 5[')).to.deep.include({ lowInclusive: true, highInclusive: false });
    // v2.0's comma, and `:` before a range (the v2.0 documentation's), read as `IN [..]`.
    for (const comma of ['a IN [1, 5[', 'a in[1,5[', 'a : [1 .. 5[', 'a:[1,5[']) {
      expect(parseWhereClause(comma), comma).to.deep.include({
        kind: 'in_range',
        lowInclusive: true,
        highInclusive: false,
      });
    }
    expect((parseWhereClause("a in ('x', 'y')") as any).items).to.have.length(2);
    expect(parseWhereClause("'x' in tags").kind).to.equal('member');
  });

  it('calls: lower-cased names, count(*), count(distinct f), bound lists, patterns', () => {
    expect(parseWhereClause('COUNT(*)')).to.deep.include({ kind: 'call', name: 'count', distinct: false });
    expect(parseWhereClause('count(distinct f)')).to.deep.include({ distinct: true });
    expect((parseWhereClause('range(f, ]1, 2[)') as any).args[1]).to.deep.include({
      kind: 'bounds',
      openLow: true,
      openHigh: true,
    });
    expect((parseWhereClause('range(f, [1, 2])') as any).args[1]).to.deep.include({
      openLow: false,
      openHigh: false,
    });
    expect((parseSelect('include(geo*)')[0]!.expr as any).args[0]).to.deep.include({
      kind: 'pattern',
      prefix: 'geo',
    });
    expect(parseWhereClause('now()')).to.deep.include({ kind: 'call', name: 'now' });
  });

  it('select and group_by items with labels; order_by items with directions', () => {
    const [first, second] = parseSelect('a AS x, count(*) as `my count`');
    expect(first).to.deep.include({ label: 'x' });
    expect(second).to.deep.include({ label: 'my count' });
    expect(parseGroupBy('a, b as c').map((i) => i.label)).to.deep.equal([null, 'c']);
    expect(parseOrderBy('a, b ASC, c desc').map((i) => i.direction)).to.deep.equal([null, 'asc', 'desc']);
  });

  it('every node carries the span of its text', () => {
    const text = "lower(name) = 'x' and n in [1..5] or length(`year`) > -2";
    for (const node of nodes(parseWhereClause(text))) {
      expect(node.span.end).to.be.greaterThan(node.span.start);
      const written = text.slice(node.span.start, node.span.end);
      if (node.kind === 'field') expect(written.replaceAll('`', '')).to.equal(node.name);
      if (node.kind === 'call') expect(written.toLowerCase().startsWith(node.name)).to.equal(true);
    }
    expect(parseSelect('  count(*)  as c')[0]!.span).to.deep.equal({ start: 2, end: 16 });
  });

  it('nodes and lists are frozen', () => {
    const tree = parseWhereClause('a = 1 or b = 2') as any;
    expect(Object.isFrozen(tree)).to.equal(true);
    expect(Object.isFrozen(tree.operands)).to.equal(true);
    expect(Object.isFrozen(tree.operands[0].left)).to.equal(true);
    expect(Object.isFrozen(parseSelect('a, b'))).to.equal(true);
  });
});

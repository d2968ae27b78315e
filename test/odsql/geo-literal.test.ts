// Geometry literals (WKT and GeoJSON) and distances with units: what parses, to what, and what is refused.
import { expect } from 'chai';
import { QueryLangError } from '../../src/odsql/errors.js';
import { distanceInMeters, parseDistance, parseGeometryLiteral } from '../../src/odsql/functions/geo.js';

describe('geometry literals', () => {
  const cases: [string, unknown][] = [
    ['POINT(2.35 48.85)', { type: 'Point', coordinates: [2.35, 48.85] }],
    ['  point ( -0.5   1e1 ) ', { type: 'Point', coordinates: [-0.5, 10] }],
    [
      'LINESTRING(0 0, 1 1, 2 0)',
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
          [2, 0],
        ],
      },
    ],
    [
      'POLYGON((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 2 1, 2 2, 1 1))',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [4, 0],
            [4, 4],
            [0, 4],
            [0, 0],
          ],
          [
            [1, 1],
            [2, 1],
            [2, 2],
            [1, 1],
          ],
        ],
      },
    ],
    // An open ring is closed rather than refused.
    [
      'POLYGON((0 0, 4 0, 4 4))',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [4, 0],
            [4, 4],
            [0, 0],
          ],
        ],
      },
    ],
    [
      'MULTIPOINT(1 2, 3 4)',
      {
        type: 'MultiPoint',
        coordinates: [
          [1, 2],
          [3, 4],
        ],
      },
    ],
    [
      'MULTIPOINT((1 2), (3 4))',
      {
        type: 'MultiPoint',
        coordinates: [
          [1, 2],
          [3, 4],
        ],
      },
    ],
    [
      'MULTILINESTRING((0 0, 1 1), (2 2, 3 3))',
      {
        type: 'MultiLineString',
        coordinates: [
          [
            [0, 0],
            [1, 1],
          ],
          [
            [2, 2],
            [3, 3],
          ],
        ],
      },
    ],
    [
      'MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))',
      {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 0],
            ],
          ],
          [
            [
              [5, 5],
              [6, 5],
              [6, 6],
              [5, 5],
            ],
          ],
        ],
      },
    ],
    ['{"type": "Point", "coordinates": [2.35, 48.85]}', { type: 'Point', coordinates: [2.35, 48.85] }],
    ['{"type": "Point", "coordinates": [2.35, 48.85, 35]}', { type: 'Point', coordinates: [2.35, 48.85] }],
    [
      '{"type":"MultiLineString","coordinates":[[[0,0],[1,1]],[[2,2],[3,3]]]}',
      {
        type: 'MultiLineString',
        coordinates: [
          [
            [0, 0],
            [1, 1],
          ],
          [
            [2, 2],
            [3, 3],
          ],
        ],
      },
    ],
    [
      '{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,0]]]}',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [4, 0],
            [4, 4],
            [0, 0],
          ],
        ],
      },
    ],
  ];
  for (const [text, expected] of cases) {
    it(`parses ${text}`, () => {
      expect(parseGeometryLiteral(text)).to.deep.equal(expected);
    });
  }

  const errors: [string, RegExp][] = [
    ['', /expected one of POINT/],
    ['CIRCLE(0 0, 1)', /expected one of POINT/],
    ['POINT(1)', /two numbers/],
    ['POINT(1 2 3)', /two numbers/],
    ['POINT(200 0)', /outside longitude/],
    ['POINT(0 91)', /outside longitude/],
    ['POINT(1 2', /expected \)/],
    ['POINT(1 2) extra', /after the geometry/],
    ['POINT(1 2, 3 4)', /nested too deeply/],
    ['LINESTRING(1 2)', /at least two positions/],
    ['POLYGON((0 0, 1 1))', /at least three distinct/],
    ['POLYGON(0 0, 1 1, 1 0, 0 0)', /not nested deeply enough/],
    ['POINT(1 2) ; DROP TABLE x', /unexpected/],
    ['{"type": "Point", "coordinates": [1]}', /two numbers/],
    ['{"type": "Point", "coordinates": [1, 2, 3, 4]}', /two numbers/],
    ['{"type": "Feature", "geometry": null}', /unsupported GeoJSON type/],
    ['{"type": "Polygon", "coordinates": [[0, 0], [1, 1]]}', /not nested deeply enough/],
    ['{"type": "Point", "coordinates": "1 2"}', /must be arrays/],
    ['{"type": "Point"', /not valid JSON/],
  ];
  for (const [text, message] of errors) {
    it(`refuses ${JSON.stringify(text)}`, () => {
      expect(() => parseGeometryLiteral(text))
        .to.throw(QueryLangError, message)
        .with.property('message')
        .that.contains('Invalid geometry literal');
    });
  }
});

describe('distances', () => {
  const meters: [string, number][] = [
    ['10km', 10_000],
    ['5mi', 8046.72],
    ['300yd', 274.32],
    ['12ft', 3.6576],
    ['100m', 100],
    ['50cm', 0.5],
    ['3mm', 0.003],
    ['2.5km', 2500],
    ['10KM', 10_000],
  ];
  for (const [text, expected] of meters) {
    it(`reads ${text} as ${expected} m`, () => {
      expect(parseDistance(text)).to.be.closeTo(expected, 1e-9);
    });
  }

  for (const text of ['10 km', 'km', '10', '-5km', '10parsec', '1e3m', '']) {
    it(`refuses ${JSON.stringify(text)}`, () => {
      expect(() => parseDistance(text)).to.throw(QueryLangError);
    });
  }

  it('converts a quantity node (value and unit apart)', () => {
    expect(distanceInMeters(2, 'mi')).to.be.closeTo(3218.688, 1e-9);
    expect(() => distanceInMeters(2, 'league')).to.throw(QueryLangError, /Unknown distance unit: league/);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../test/fakeServer';
import { loadStl, parseStl, triangleCount } from './stlGeometry';

/** A tetrahedron: four facets, from (0,0,0) to (10,10,10) in Z-up millimetres. */
const TETRAHEDRON = `solid tetra
facet normal 0 0 -1
  outer loop
    vertex 0 0 0
    vertex 10 0 0
    vertex 0 10 0
  endloop
endfacet
facet normal 0 -1 0
  outer loop
    vertex 0 0 0
    vertex 0 0 10
    vertex 10 0 0
  endloop
endfacet
facet normal -1 0 0
  outer loop
    vertex 0 0 0
    vertex 0 10 0
    vertex 0 0 10
  endloop
endfacet
facet normal 0.577 0.577 0.577
  outer loop
    vertex 10 0 0
    vertex 0 0 10
    vertex 0 10 0
  endloop
endfacet
endsolid tetra
`;

describe('STL loading', () => {
  it('parses an ASCII STL: triangles, normals, centred, Z-up turned Y-up', () => {
    const geometry = parseStl(TETRAHEDRON);
    expect(triangleCount(geometry)).toBe(4);
    expect(geometry.getAttribute('position').count).toBe(12);
    expect(geometry.getAttribute('normal').count).toBe(12);
    geometry.computeBoundingBox();
    const box = geometry.boundingBox!;
    for (const axis of ['x', 'y', 'z'] as const) {
      expect(box.min[axis]).toBeCloseTo(-5);
      expect(box.max[axis]).toBeCloseTo(5);
    }
    // The first facet faced -Z (down in Z-up); in Y-up it faces -Y.
    const normal = geometry.getAttribute('normal');
    expect(normal.getY(0)).toBeCloseTo(-1);
    expect(normal.getZ(0)).toBeCloseTo(0);
    expect(geometry.boundingSphere!.radius).toBeCloseTo(Math.sqrt(75));
  });

  it('parses the same model from an ArrayBuffer', () => {
    const buffer = new TextEncoder().encode(TETRAHEDRON).buffer as ArrayBuffer;
    expect(triangleCount(parseStl(buffer))).toBe(4);
  });

  it('refuses a file that is not STL, or holds no triangles', () => {
    expect(() => parseStl('hello')).toThrow('The file is not a readable STL model.');
    const empty = `solid empty${' '.repeat(100)}\nendsolid empty\n`;
    expect(() => parseStl(new TextEncoder().encode(empty).buffer as ArrayBuffer)).toThrow(
      'The file holds no triangles.',
    );
  });

  it('fetches a stored file with the session cookie', async () => {
    const server = fakeServer({ 'GET /files/u1/upper.stl': { text: TETRAHEDRON } });
    const geometry = await loadStl('/api/files/u1/upper.stl');
    expect(triangleCount(geometry)).toBe(4);
    expect(server.fetch.mock.calls[0][1]).toMatchObject({ credentials: 'same-origin' });
  });

  it('reports a failed download', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fakeServer({});
    await expect(loadStl('/api/files/nope/x.stl')).rejects.toThrow('HTTP 404');
  });
});

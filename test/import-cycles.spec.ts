/**
 * The code reads from the top down: no module imports one that (through others) imports it back.
 * A cycle is where a newcomer loses the thread, and where start-up order starts to matter.
 * The same holds one level up: the top-level folders of backend/src, libs/domain/src and
 * frontend/src/features (one capability each) form layers, so no folder imports one that (through
 * others) imports it back.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(__dirname, '..');
const SOURCES = ['libs/domain/src', 'backend/src', 'frontend/src'];
/** Whose top-level folders must not import one another both ways. */
const LAYERED = ['libs/domain/src', 'backend/src', 'frontend/src/features'];
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' || name === 'test' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.(spec|test)\.tsx?$/.test(name) && !name.endsWith('.d.ts')
      ? [path]
      : [];
  });
}

/** The file an import names: `./x.js` is `./x.ts`, `./x` is `./x.ts`, `./x.tsx` or `./x/index.ts`. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((path) => existsSync(path));
}

function importGraph(files: string[]): Map<string, string[]> {
  return new Map(
    files.map((file) => [
      file,
      [...readFileSync(file, 'utf8').matchAll(IMPORT)]
        .map((match) => resolveImport(file, match[1]))
        .filter((target): target is string => target !== undefined),
    ]),
  );
}

/** Strongly connected components of more than one file (Tarjan), each a cycle of imports. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** The graph of the top-level folders under `root`: folder → the other folders its files import. */
function folderGraph(root: string, graph: Map<string, string[]>): Map<string, string[]> {
  const folderOf = (file: string): string | undefined => {
    const parts = relative(root, file).split(sep);
    return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined;
  };
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (!from) continue;
    const edges = folders.get(from) ?? folders.set(from, new Set()).get(from)!;
    for (const target of targets) {
      const to = folderOf(target);
      if (to && to !== from) edges.add(to);
    }
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges].sort()]));
}

/**
 * Every import between two folders of one folder cycle, `a → b`, with a file that makes it: each
 * is a tie to cut, and cutting enough of them (one per cycle) leaves the folders in layers.
 */
function folderTies(root: string, graph: Map<string, string[]>): Map<string, string> {
  const folders = folderGraph(root, graph);
  const ties = new Map<string, string>();
  for (const members of cycles(folders)) {
    const inCycle = new Set(members);
    for (const from of members)
      for (const to of folders.get(from)!.filter((folder) => inCycle.has(folder))) {
        const [file] = [...graph].find(
          ([source, targets]) =>
            relative(root, source).startsWith(from + sep) &&
            targets.some((target) => relative(root, target).startsWith(to + sep)),
        )!;
        ties.set(`${from} → ${to}`, relative(root, file));
      }
  }
  return ties;
}

describe('imports', () => {
  it('finds a cycle when there is one (the check itself)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('finds a folder cycle, direct or through other folders (the check itself)', () => {
    const root = '/src';
    const graph = new Map([
      ['/src/a/x.ts', ['/src/b/y.ts', '/src/a/z.ts']],
      ['/src/b/y.ts', ['/src/c/w.ts']],
      ['/src/c/w.ts', ['/src/a/z.ts']],
      ['/src/a/z.ts', []],
      ['/src/d/v.ts', ['/src/a/x.ts']],
      ['/src/top.ts', ['/src/d/v.ts']],
    ]);
    expect(Object.fromEntries(folderTies(root, graph))).toEqual({
      'a → b': 'a/x.ts',
      'b → c': 'b/y.ts',
      'c → a': 'c/w.ts',
    });
    graph.set('/src/c/w.ts', []);
    expect(folderTies(root, graph).size).toBe(0);
  });

  it.each(SOURCES)('%s has no import cycle', (source) => {
    const files = sourceFiles(join(ROOT, source));
    expect(files.length).toBeGreaterThan(20);
    const found = cycles(importGraph(files)).map((cycle) => cycle.map((file) => relative(ROOT, file)));
    expect(found).toEqual([]);
  });

  it.each(LAYERED)('the folders of %s import one another one way only', (source) => {
    const root = join(ROOT, source);
    const files = sourceFiles(root);
    expect(files.length).toBeGreaterThan(20);
    const ties = [...folderTies(root, importGraph(files))].map(([tie, file]) => `${tie} (${file})`);
    expect(ties).toEqual([]);
  });
});

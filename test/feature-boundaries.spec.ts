/**
 * A feature of the app (`frontend/src/features/<name>/`) builds on `components/`, `api/`,
 * `@alignerflow/domain` and the shared case pieces (`features/case-shared/`), never on another
 * feature's files: what two features both need moves to one of those places, and where one screen
 * shows another feature's part, the app puts them together (`app/caseScreenParts.tsx`). The shared
 * case folder itself imports no feature, or features would reach each other through it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';

const FEATURES = resolve(__dirname, '../frontend/src/features');
const SHARED = 'case-shared';
// Static imports and re-exports, `import('…')` and `vi.mock('…')`: every way a file names another.
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every import from one feature's file into another feature, as 'a/File.tsx -> b/module'. */
function crossFeatureImports(root: string): string[] {
  return files(root).flatMap((file) => {
    const [feature] = relative(root, file).split(sep);
    return [...readFileSync(file, 'utf8').matchAll(SPECIFIER)].flatMap((match) => {
      const target = relative(root, resolve(dirname(file), match[1]));
      const [other] = target.split(sep);
      if (target.startsWith('..') || other === feature) return [];
      if (other === SHARED && feature !== SHARED) return [];
      return [`${relative(root, file).split(sep).join('/')} -> ${target.split(sep).join('/')}`];
    });
  });
}

describe('feature boundaries in frontend/src/features', () => {
  const found = crossFeatureImports(FEATURES);

  it('no feature imports another feature (only components/, api/, the domain and case-shared)', () => {
    expect(found).toEqual([]);
  });

  it('sees every way of naming another feature, and lets case-shared be imported but import none', () => {
    const root = mkdtempSync(join(tmpdir(), 'features-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    write('queue/Card.tsx', "import { A } from '../dashboard/texts';\nimport { B } from './own';");
    write('queue/lazy.ts', "const C = lazy(() => import('../billing/Invoice'));");
    write('queue/Card.test.tsx', "vi.mock('../scan/useCamera', () => ({}));\nexport { D } from '../x/y';");
    write(
      'queue/Shared.tsx',
      "import { E } from '../case-shared/useCaseCommand';\nimport { F } from '../../api/client';",
    );
    write('case-shared/bad.ts', "import type { G } from '../case-detail/texts';");
    try {
      expect(crossFeatureImports(root).sort()).toEqual([
        'case-shared/bad.ts -> case-detail/texts',
        'queue/Card.test.tsx -> scan/useCamera',
        'queue/Card.test.tsx -> x/y',
        'queue/Card.tsx -> dashboard/texts',
        'queue/lazy.ts -> billing/Invoice',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

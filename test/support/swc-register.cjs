/**
 * A require hook that runs the backend's TypeScript sources directly (`node -r <this> main.ts`), so
 * tests can start real worker processes from the code under test without a build. It compiles
 * with @swc/core exactly as the jest config does and resolves `@alignerflow/domain` and the `.js`
 * suffixes of relative imports to the sources. Test tooling only; production runs backend/dist.
 */
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS require hook, loaded with node -r */
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');

const repoRoot = path.resolve(__dirname, '..', '..');
const domainEntry = path.join(repoRoot, 'libs', 'domain', 'src', 'index.ts');

const originalResolve = Module._resolveFilename;
Module._resolveFilename = function resolveTs(request, parent, ...rest) {
  if (request === '@alignerflow/domain') return domainEntry;
  if (parent && parent.filename && parent.filename.endsWith('.ts') && /^\.{1,2}\//.test(request)) {
    const candidate = path.resolve(path.dirname(parent.filename), request);
    if (request.endsWith('.js') && !fs.existsSync(candidate)) {
      const ts = candidate.slice(0, -3) + '.ts';
      if (fs.existsSync(ts)) return ts;
    }
    if (!path.extname(candidate) && fs.existsSync(candidate + '.ts')) return candidate + '.ts';
  }
  return originalResolve.call(this, request, parent, ...rest);
};

Module._extensions['.ts'] = function compileTs(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = transformSync(source, {
    filename,
    sourceMaps: 'inline',
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};

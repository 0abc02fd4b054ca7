import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

const ROOT = path.resolve(__dirname, '..');
const projectRange = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson)
  .engines.node;

interface PackageJson {
  name: string;
  version: string;
  engines: { node: string };
}

/** Every package.json under the workspaces' node_modules, nested copies included. */
function installedPackages(): PackageJson[] {
  const found: PackageJson[] = [];
  const walk = (modules: string) => {
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const dir = path.join(modules, entry.name);
      if (entry.name.startsWith('@')) {
        walk(dir);
        continue;
      }
      const manifest = path.join(dir, 'package.json');
      if (existsSync(manifest)) found.push(JSON.parse(readFileSync(manifest, 'utf8')) as PackageJson);
      if (existsSync(path.join(dir, 'node_modules'))) walk(path.join(dir, 'node_modules'));
    }
  };
  for (const workspace of ['.', 'backend', 'frontend', 'libs/domain']) {
    const modules = path.join(ROOT, workspace, 'node_modules');
    if (existsSync(modules)) walk(modules);
  }
  return found;
}

describe('Node engines', () => {
  it('the Node running the tests is one the project declares', () => {
    expect(semver.satisfies(process.version, projectRange)).toBe(true);
  });

  it('every installed package supports every Node the project declares (no EBADENGINE on install)', () => {
    const disagreeing = installedPackages()
      .filter(({ engines }) => typeof engines?.node === 'string' && semver.validRange(engines.node))
      .filter(({ engines }) => !semver.subset(projectRange, engines.node))
      .map(({ name, version, engines }) => `${name}@${version} wants node ${engines.node}`);
    expect(disagreeing).toEqual([]);
  });

  it('Nest still recognises a file by its content with the file-type release that supports Node 20', () => {
    // In plain Node: file-type is ESM-only, which jest's resolver does not load from Nest's import().
    const check = `
      import { FileTypeValidator } from '@nestjs/common';
      const validator = new FileTypeValidator({ fileType: 'image/png' });
      const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
      const stl = Buffer.from('solid cube\\n');
      console.log(JSON.stringify([
        await validator.isValid({ buffer: png, mimetype: 'image/png' }),
        await validator.isValid({ buffer: stl, mimetype: 'image/png' }),
      ]));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', check], {
      cwd: path.join(ROOT, 'backend'),
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual([true, false]);
  });
});

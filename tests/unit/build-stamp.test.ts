import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_INPUTS, SERVER_INPUTS, isStale, sourceFiles, stampOf } from '../../scripts/build-lib.mjs';
import { projectRoot } from '../../server/src/lib/paths';

let root: string;
const write = (rel: string, body: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), body);
};
const stamp = (inputs = SERVER_INPUTS) => stampOf(root, sourceFiles(root, inputs));

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-stamp-'));
  write('server/src/main.ts', 'console.log(1);\n');
  write('server/src/users/service.ts', 'export const a = 1;\n');
  write('common/roles.ts', 'export const roles = [];\n');
  write('seed/demo.ts', 'export {};\n');
  write('client/index.html', '<!doctype html>\n');
  write('client/src/App.tsx', 'export default 1;\n');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the build stamp', () => {
  it('is the same for an unchanged tree, even when files were touched', () => {
    const before = stamp();
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, 'server/src/main.ts'), later, later);
    expect(stamp()).toBe(before);
    expect(isStale(before, stamp(), true)).toBe(false);
  });

  it('changes when a source file changes, is added, removed or renamed', () => {
    const before = stamp();
    write('server/src/main.ts', 'console.log(2);\n');
    const edited = stamp();
    expect(isStale(before, edited, true)).toBe(true);
    write('seed/more.ts', 'export {};\n');
    const added = stamp();
    expect(added).not.toBe(edited);
    fs.renameSync(path.join(root, 'seed/more.ts'), path.join(root, 'seed/other.ts'));
    expect(stamp()).not.toBe(added);
    fs.rmSync(path.join(root, 'seed/other.ts'));
    expect(stamp()).toBe(edited);
  });

  it('follows the shared code into both outputs, and each side only into its own', () => {
    const server = stamp(SERVER_INPUTS);
    const client = stamp(CLIENT_INPUTS);
    write('common/roles.ts', 'export const roles = ["admin"];\n');
    expect(stamp(SERVER_INPUTS)).not.toBe(server);
    expect(stamp(CLIENT_INPUTS)).not.toBe(client);

    const server2 = stamp(SERVER_INPUTS);
    const client2 = stamp(CLIENT_INPUTS);
    write('client/index.html', '<!doctype html><title>x</title>\n');
    expect(stamp(CLIENT_INPUTS)).not.toBe(client2);
    expect(stamp(SERVER_INPUTS)).toBe(server2);
    write('server/src/users/service.ts', 'export const a = 2;\n');
    expect(stamp(CLIENT_INPUTS)).not.toBe(client2);
    expect(isStale(client2, stamp(CLIENT_INPUTS), true)).toBe(true);
  });

  it('ignores test files, which no output contains', () => {
    const before = stamp();
    write('server/src/users/service.test.ts', 'it("x", () => {});\n');
    expect(stamp()).toBe(before);
  });

  it('asks for a build when the output is missing or was never stamped', () => {
    const current = stamp();
    expect(isStale(current, current, false)).toBe(true);
    expect(isStale(null, current, true)).toBe(true);
    expect(isStale(`${current}\n`, current, true)).toBe(false);
  });

  it('covers the real sources of the project, index.html and the Vite config included', () => {
    const client = sourceFiles(projectRoot(), CLIENT_INPUTS);
    expect(client).toContain('client/index.html');
    expect(client).toContain('vite.config.ts');
    expect(client.some((f) => f.startsWith('common/'))).toBe(true);
    const server = sourceFiles(projectRoot(), SERVER_INPUTS);
    expect(server).toContain('server/src/main.ts');
    expect(server.some((f) => f.startsWith('seed/'))).toBe(true);
    expect(server.some((f) => f.endsWith('.test.ts'))).toBe(false);
  });
});

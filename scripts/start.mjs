// npm start: build, prepare the sample corpus (fetched from loopback fake Gerrit hosts that stay up
// so "Fetch from Hosts" works), then open VS Code on it: the desktop `code` with
// --extensionDevelopmentPath when one is on the PATH, otherwise code-server at a loopback URL.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build, ROOT_DIR as ROOT } from './build.mjs';
import { ensureCodeServer } from './code-server.mjs';
import { packageVsix, installVsixes } from '../test/integration/vsix.mjs';
import { freePort } from '../test/integration/workbench-session.mjs';
import { stopTree } from '../test/integration/processes.mjs';

const WORK = path.join(ROOT, '.vscode-test', 'start');
const SAMPLE = path.join(WORK, 'sample');
const started = [];

function onPath(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** Runs the sample builder with --serve and resolves once the corpus is written. */
function serveSample() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'out', 'sample-corpus.js'), SAMPLE, '--serve'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    started.push(child.pid);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      process.stdout.write(d);
      if (/serving wikimedia at /.test(out)) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`the sample Gerrit hosts stopped (exit ${code})`)));
  });
}

async function stopAll() {
  for (const pid of started.reverse()) await stopTree(pid, { graceMs: 3000 }).catch(() => undefined);
}

async function main() {
  await build();
  rmSync(SAMPLE, { recursive: true, force: true });
  await serveSample();
  const configFile = path.join(SAMPLE, 'corpus.json');
  console.log(`\nsample corpus ready: ${configFile} (salt for "Set Salt…": sample-salt-fabricated-not-secret)`);

  if (onPath('code') && !process.env.REVIEW_CORPUS_CODE_SERVER) {
    spawnSync('code', ['--extensionDevelopmentPath', ROOT, SAMPLE], { stdio: 'inherit' });
    console.log('VS Code is open on the sample corpus. The fake Gerrit hosts serve until you press Ctrl+C.');
  } else {
    const bin = ensureCodeServer();
    const vsix = packageVsix(ROOT, path.join(WORK, 'review-corpus.vsix'));
    const dirs = {
      extensionsDir: path.join(WORK, 'extensions'),
      userDataDir: path.join(WORK, 'user-data'),
      configFile: path.join(WORK, 'code-server.yaml'),
    };
    mkdirSync(path.join(dirs.userDataDir, 'User'), { recursive: true });
    writeFileSync(
      path.join(dirs.userDataDir, 'User', 'settings.json'),
      JSON.stringify({ 'workbench.startupEditor': 'none' }),
    );
    writeFileSync(dirs.configFile, 'auth: none\n');
    installVsixes(bin, dirs, [vsix]);
    const port = Number(process.env.PORT) || (await freePort());
    const server = spawn(
      bin,
      [
        '--config',
        dirs.configFile,
        '--auth',
        'none',
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--user-data-dir',
        dirs.userDataDir,
        '--extensions-dir',
        dirs.extensionsDir,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'], detached: true },
    );
    started.push(server.pid);
    const url = new URL(`http://127.0.0.1:${port}/`);
    url.searchParams.set('folder', SAMPLE);
    console.log(`\nOpen VS Code (code-server ${'4.100.3'}) at:\n\n  ${url.href}\n\nPress Ctrl+C to stop.`);
  }
  await new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await stopAll();
}

main().catch(async (e) => {
  console.error(`npm start: ${e.message}`);
  await stopAll();
  process.exit(1);
});

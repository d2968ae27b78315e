// The command line itself, through the real `duckportal` process: help and version on stdout with
// exit 0, usage errors on stderr with exit 2, serve's flags from DUCKPORTAL_* variables.
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { envName } from '../../src/command-line/flags.js';
import { INGEST_FLAGS } from '../../src/cli/ingest.js';
import { SERVE_FLAGS } from '../../src/cli/serve.js';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';
import { runCli, runNode, startServe, type Ran } from './run-cli.js';

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

describe('the command line', () => {
  it('prints help and the version on stdout, exit 0', async () => {
    const { version } = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    expect(await runCli(['--version'])).to.deep.equal({ code: 0, stdout: `${version}\n`, stderr: '' });
    for (const args of [['--help'], ['-h'], ['help']]) {
      const ran = await runCli(args);
      expect(ran).to.include({ code: 0, stderr: '' });
      for (const command of ['serve', 'ingest', 'keys', 'users', 'sample'])
        expect(ran.stdout).to.match(new RegExp(`^  ${command} `, 'm'));
    }
  });

  it('lists every flag of a command with its default, and for serve its variable', async () => {
    const serve = await runCli(['serve', '--help']);
    expect(serve).to.include({ code: 0, stderr: '' });
    const help = serve.stdout.replace(/\s+/g, ' ');
    // An on flag (--shared-exports) is listed as the flag that turns it off, as ingest's below.
    for (const name of Object.keys(SERVE_FLAGS)) {
      expect(help).to.match(new RegExp(`--(no-)?${kebab(name)} `));
      expect(help).to.include(`env: ${envName(name)})`);
    }
    for (const shown of ['default: data/portal', 'default: 8080', 'default: 127.0.0.1', 'default: 384MB'])
      expect(help).to.include(shown);
    expect(help).to.include('default: 128MB').and.include('default: 60').and.include('default: info');
    const ingest = await runCli(['ingest', '--help']);
    expect(ingest).to.include({ code: 0, stderr: '' });
    expect(ingest.stdout).to.include('Usage: duckportal ingest [options] <file>');
    // An on flag (--auto-facets) is listed as the flag that turns it off.
    for (const name of Object.keys(INGEST_FLAGS))
      expect(ingest.stdout).to.match(new RegExp(`--(no-)?${kebab(name)} `));
    // The table of serve flags in docs/operating.md names each flag and its variable.
    const operating = await readFile('docs/operating.md', 'utf8');
    for (const name of Object.keys(SERVE_FLAGS))
      expect(operating).to.match(
        new RegExp(`^\\| \`--(no-)?${kebab(name)}[^|]*\\| \`${envName(name)}\` \\|`, 'm'),
      );
    for (const command of [['keys', 'create'], ['users', 'add'], ['sample']])
      expect(await runCli([...command, '--help'])).to.include({ code: 0, stderr: '' });
  });

  it('answers an unknown command or flag with a suggestion and the usage, exit 2', async () => {
    const command = await runCli(['serv']);
    expect(command).to.include({ code: 2, stdout: '' });
    expect(command.stderr).to.match(
      /^duckportal: unknown command 'serv'\n\(Did you mean serve\?\)\n\nUsage: duckportal /,
    );
    const flag = await runCli(['serve', '--prot', '80']);
    expect(flag).to.include({ code: 2, stdout: '' });
    expect(flag.stderr).to.match(
      /^duckportal: unknown option '--prot'\n\(Did you mean --port\?\)\n\nUsage: duckportal serve /,
    );
    expect(flag.stderr).to.include('--cache-size <SIZE>');
    const missing = await runCli(['ingest', 'towns.csv', '--portal', 'p']);
    expect(missing).to.include({ code: 2, stdout: '' });
    expect(missing.stderr).to.match(
      /^duckportal: required option '--id <ID>' not specified\n\nUsage: duckportal ingest /,
    );
    const nothing = await runCli([]);
    expect(nothing).to.include({ code: 2, stdout: '' });
    expect(nothing.stderr).to.match(/^Usage: duckportal /);
  });

  it('refuses a bad flag value in one line naming the flag, exit 2', async () => {
    const cases: [string[], string][] = [
      [
        ['serve', '--port', 'abc'],
        "option '--port <PORT>' argument 'abc' is invalid. expected a port number, 0 to 65535",
      ],
      [
        ['serve', '--port', '70000'],
        "option '--port <PORT>' argument '70000' is invalid. expected a port number",
      ],
      [
        ['serve', '--log-level', 'loud'],
        "option '--log-level <LEVEL>' argument 'loud' is invalid. Allowed choices are",
      ],
      [
        ['serve', '--max-age', '-1'],
        "option '--max-age <SECONDS>' argument '-1' is invalid. expected a whole number",
      ],
      [
        ['serve', '--cache-size', 'lots'],
        "option '--cache-size <SIZE>' argument 'lots' is invalid. expected a size",
      ],
      [['serve', '--memory-limit', '80%'], "option '--memory-limit <SIZE>' argument '80%' is invalid"],
      [
        ['serve', '--threads', '0'],
        "option '--threads <N>' argument '0' is invalid. expected a whole number, 1 or more",
      ],
      [
        ['ingest', 'f.csv', '--portal', 'p', '--id', 'x', '--geo-point', 'lat,lon,alt'],
        "option '--geo-point <LATCOL,LONCOL|FIELD>' argument 'lat,lon,alt' is invalid. expected LATCOL,LONCOL or FIELD",
      ],
      [
        ['ingest', 'f.csv', '--portal', 'p', '--id', 'x', '--multivalued', 'tags:'],
        "option '--multivalued <FIELD:SEP>' argument 'tags:' is invalid. expected FIELD:SEP",
      ],
      [['ingest', 'f.csv', '--portal', 'p', '--id', 'x', '--format', 'xls'], 'unknown input format "xls"'],
      [
        ['ingest', 'f.csv', '--portal', 'p', '--id', 'x', '--max-download', 'lots'],
        "option '--max-download <BYTES>' argument 'lots' is invalid. expected bytes such as 500M or 2G",
      ],
    ];
    for (const [args, message] of cases) {
      const ran = await runCli(args);
      expect(ran, args.join(' ')).to.include({ code: 2, stdout: '' });
      expect(ran.stderr, args.join(' ')).to.match(/^duckportal: [^\n]*\n$/);
      expect(ran.stderr, args.join(' ')).to.include(message);
    }
  });

  it('leaves the bench out of the shipped command: make bench runs it as a program of its own', async () => {
    expect(await runCli(['bench'])).to.include({ code: 2, stdout: '' });
    const bench = (args: string[]): Promise<Ran> => runNode(['dist/bench/main.js', ...args]);
    const help = await bench(['--help']);
    expect(help).to.include({ code: 0, stderr: '' });
    expect(help.stdout).to.include('Usage: bench [options]').and.include('--only <SECTIONS>');
    const wrong = await bench(['--runs', 'many']);
    expect(wrong).to.include({ code: 2, stdout: '' });
    expect(wrong.stderr).to.match(/^bench: option '--runs <N>' argument 'many' is invalid[^\n]*\n$/);
  });

  it('takes every serve flag from DUCKPORTAL_* variables, the flag winning', async () => {
    const env = {
      DUCKPORTAL_PORTAL: SAMPLE_PORTAL,
      DUCKPORTAL_PORT: '0',
      DUCKPORTAL_MAX_AGE: '7',
      DUCKPORTAL_LOG_FORMAT: 'pretty',
      DUCKPORTAL_TRUST_PROXY: '0',
    };
    const fromEnv = await startServe([], env);
    try {
      const response = await fetch(
        `${fromEnv.base}/api/explore/v2.1/catalog/datasets/airports/records?limit=1&include_links=true`,
        {
          headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'forged.example' },
        },
      );
      expect(response.headers.get('cache-control')).to.include('max-age=7');
      // DUCKPORTAL_TRUST_PROXY=0 leaves the proxy headers ignored.
      expect(JSON.stringify(await response.json())).to.not.include('forged.example');
    } finally {
      expect(await fromEnv.stop()).to.equal(0);
    }
    expect(fromEnv.output().stdout)
      .to.match(/INFO.*datasets on http/)
      .and.not.include('"msg"');
    const flagsWin = await startServe(['--max-age', '9', '--log-format', 'json'], {
      ...env,
      DUCKPORTAL_TRUST_PROXY: 'true',
    });
    try {
      const response = await fetch(
        `${flagsWin.base}/api/explore/v2.1/catalog/datasets/airports/records?limit=1&include_links=true`,
        {
          headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'data.example.org' },
        },
      );
      expect(response.headers.get('cache-control')).to.include('max-age=9');
      expect(JSON.stringify(await response.json())).to.include('https://data.example.org/');
    } finally {
      expect(await flagsWin.stop()).to.equal(0);
    }
    expect(flagsWin.output().stdout).to.include('"msg":"request"');
    // A variable's bad value is a usage error naming the variable.
    const badPort = await runCli(['serve'], { env: { ...env, DUCKPORTAL_PORT: 'abc' } });
    expect(badPort).to.deep.equal({
      code: 2,
      stdout: '',
      stderr:
        "duckportal: option '--port <PORT>' value 'abc' from env 'DUCKPORTAL_PORT' is invalid. expected a port number, 0 to 65535\n",
    });
    const badToggle = await runCli(['serve'], { env: { ...env, DUCKPORTAL_TRUST_PROXY: 'maybe' } });
    expect(badToggle).to.deep.equal({
      code: 2,
      stdout: '',
      stderr: 'duckportal: DUCKPORTAL_TRUST_PROXY=maybe: expected 1 or 0 (true or false)\n',
    });
  });
});

// The flag kit's on/off flags read from the command line and from their DUCKPORTAL_* variables: a
// toggle (off unless given) and a negatable flag (on unless `--no-...`), whose variable is named
// after the thing and reads 1/on as on, 0/off as off, the flag winning.
import { expect } from 'chai';
import { buildCommand, negatable, toggle } from '../../src/command-line/flags.js';

const FLAGS = { sharedExports: negatable('compute every export'), trustProxy: toggle('read X-Forwarded-*') };

/** The values a command of FLAGS gets from `argv` with the variables `env` set. */
async function parsed(
  argv: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<{ sharedExports: boolean; trustProxy: boolean }> {
  let values: { sharedExports: boolean; trustProxy: boolean } | null = null;
  const command = buildCommand({
    name: 'flags',
    summary: 'a command of on/off flags',
    env: true,
    flags: FLAGS,
    action: (flags) => {
      values = flags;
      return Promise.resolve();
    },
  });
  const saved = Object.keys(env).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, env);
  try {
    await command.parseAsync([...argv], { from: 'user' });
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  return values!;
}

describe('on/off flags and their variables', () => {
  it('reads a negatable flag as on unless --no-, and a toggle as off unless given', async () => {
    expect(await parsed([])).to.deep.equal({ sharedExports: true, trustProxy: false });
    expect(await parsed(['--no-shared-exports', '--trust-proxy'])).to.deep.equal({
      sharedExports: false,
      trustProxy: true,
    });
  });

  it("reads each one's variable as on for 1/on and off for 0/off, the flag winning", async () => {
    for (const [text, on] of [
      ['on', true],
      ['1', true],
      ['true', true],
      ['off', false],
      ['0', false],
      ['', false],
    ] as const) {
      const env = { DUCKPORTAL_SHARED_EXPORTS: text, DUCKPORTAL_TRUST_PROXY: text };
      expect(await parsed([], env), text).to.deep.equal({ sharedExports: on, trustProxy: on });
    }
    expect(await parsed(['--no-shared-exports'], { DUCKPORTAL_SHARED_EXPORTS: 'on' })).to.include({
      sharedExports: false,
    });
  });
});

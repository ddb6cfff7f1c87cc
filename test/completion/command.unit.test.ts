// `bo completion <shell>` as a user runs it.

import { describe, expect, it } from 'vitest';
import { runBo } from '../helpers/run-bo.js';

describe('bo completion', () => {
  it('prints a bash script that registers a completion function for bo', async () => {
    const r = await runBo(['completion', 'bash']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# bash completion for bo/);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('complete -F _bo bo');
    expect(r.stderr).toBe('');
  });

  it('prints a zsh script for fpath', async () => {
    const r = await runBo(['completion', 'zsh']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('#compdef bo');
  });

  it('prints a fish script', async () => {
    const r = await runBo(['completion', 'fish']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`complete -c bo -n "__bo_commands 'bo'" -a "'completion'" -d `);
  });

  it('refuses an unknown shell with exit 2 and names the choices', async () => {
    const r = await runBo(['completion', 'ksh']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('bash, zsh, fish');
  });

  it('needs a shell: exit 2', async () => {
    const r = await runBo(['completion']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("missing required argument 'shell'");
  });

  it('shows where to install each script in --help, creating the folder first (a fresh machine has none)', async () => {
    const r = await runBo(['completion', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('mkdir -p ~/.local/share/bash-completion/completions && bo completion bash > ~/.local/share/bash-completion/completions/bo');
    expect(r.stdout).toContain('mkdir -p ~/.zfunc && bo completion zsh > ~/.zfunc/_bo');
    expect(r.stdout).toContain('fpath');
    expect(r.stdout).toContain('mkdir -p ~/.config/fish/completions && bo completion fish > ~/.config/fish/completions/bo.fish');
  });
});

// The four inquirer prompts bo asks with, each its own package (not the umbrella
// @inquirer/prompts, which installs every prompt type): one module, so that
// scripts/build.mjs keeps them together out of dist/bo.cjs in dist/lazy/inquirer.js,
// loaded by src/auth/prompter.ts only when a prompt shows.

export { default as confirm } from '@inquirer/confirm';
export { default as input } from '@inquirer/input';
export { default as password } from '@inquirer/password';
export { default as select } from '@inquirer/select';

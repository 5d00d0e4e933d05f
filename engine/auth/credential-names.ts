import { templateUsage } from '../template/index.js';

/**
 * The credential fields a set of templates reads. Why: a flow can tell the caller which OAuth
 * app fields are missing before anything is sent, instead of sending an empty client id.
 */
export function credentialNames(templates: Iterable<string>): string[] {
  const names = new Set<string>();
  for (const template of templates) {
    for (const [root, name] of templateUsage(template).variables) if (root === 'credentials' && name !== undefined) names.add(name);
  }
  return [...names];
}

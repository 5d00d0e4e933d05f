export { compileTemplate, type CompiledTemplate, type TemplateContext } from './compile.js';
export { compilePath, type CompiledPath } from './path.js';
export { templateUsage, singleVariable, type TemplateUsage } from './variables.js';
export { TEMPLATE_HELPERS, BLOCK_HELPERS } from './helpers.js';

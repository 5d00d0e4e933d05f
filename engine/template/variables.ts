import Handlebars from 'handlebars';
import { BLOCK_HELPERS, TEMPLATE_HELPERS } from './helpers.js';

type HbsNode = hbs.AST.Node;
type CallNode = hbs.AST.MustacheStatement | hbs.AST.SubExpression | hbs.AST.BlockStatement;

/** What a template reads: variable paths (e.g. `params.limit`) and helper names. */
export interface TemplateUsage {
  /** Each variable as its path parts: `params.[assignee.any]` is ['params', 'assignee.any']. */
  variables: string[][];
  helpers: string[];
  problems: string[];
}

function pathName(node: hbs.AST.PathExpression): string {
  return node.parts.join('.');
}

class UsageVisitor extends Handlebars.Visitor {
  readonly usage: TemplateUsage = { variables: [], helpers: [], problems: [] };

  private call(node: CallNode, block: boolean): void {
    const path = node.path as hbs.AST.Expression;
    const hasArgs = node.params.length > 0 || (node.hash?.pairs.length ?? 0) > 0;
    if (path.type === 'PathExpression') {
      const name = pathName(path as hbs.AST.PathExpression);
      const known = block ? BLOCK_HELPERS.has(name) : Object.hasOwn(TEMPLATE_HELPERS, name);
      if (hasArgs || block || known) {
        if (known) this.usage.helpers.push(name);
        else this.usage.problems.push(`unknown helper "${name}"`);
      } else {
        this.PathExpression(path as hbs.AST.PathExpression);
      }
    }
    for (const param of node.params) this.accept(param as HbsNode);
    if (node.hash) this.accept(node.hash as HbsNode);
    if ('program' in node && node.program) this.accept(node.program as HbsNode);
    if ('inverse' in node && node.inverse) this.accept(node.inverse as HbsNode);
  }

  override MustacheStatement(node: hbs.AST.MustacheStatement): void {
    this.call(node, false);
  }

  override SubExpression(node: hbs.AST.SubExpression): void {
    this.call(node, false);
  }

  override BlockStatement(node: hbs.AST.BlockStatement): void {
    this.call(node, true);
  }

  override PathExpression(node: hbs.AST.PathExpression): void {
    if (node.data || node.original.startsWith('this') || node.original.startsWith('..')) {
      this.usage.problems.push(`"${node.original}" is not allowed: name a variable from its root (params, config, credentials)`);
      return;
    }
    this.usage.variables.push([...node.parts]);
  }

  override PartialStatement(): void {
    this.usage.problems.push('partials are not allowed');
  }
}

/** Lists what a template reads, so the validator can check each name against the manifest. */
export function templateUsage(source: string): TemplateUsage {
  let ast: hbs.AST.Program;
  try {
    ast = Handlebars.parse(source);
  } catch (error) {
    return { variables: [], helpers: [], problems: [`template does not parse: ${(error as Error).message.split('\n')[0]}`] };
  }
  const visitor = new UsageVisitor();
  visitor.accept(ast);
  return visitor.usage;
}

/**
 * The variable path when the whole template is one `{{path}}` and nothing else, so its raw value
 * (number, boolean, array, object) can be used instead of its text.
 */
export function singleVariable(source: string): string[] | null {
  const match = /^\{\{\s*([A-Za-z_][\w]*(?:\.(?:[A-Za-z_$][\w$-]*|\[[^\]]+\]))*)\s*\}\}$/.exec(source);
  if (!match) return null;
  const name = match[1] as string;
  if (Object.hasOwn(TEMPLATE_HELPERS, name)) return null;
  const parts: string[] = [];
  for (const m of name.matchAll(/\[([^\]]+)\]|([^.[\]]+)/g)) parts.push((m[1] ?? m[2]) as string);
  return parts;
}

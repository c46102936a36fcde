/**
 * The public address of a published article: `{base}/hc/{help center slug}/articles/{article slug}`,
 * where `base` is the help center's public address (`publicBaseUrl(config, 'helpCenter')`). Built
 * here only, so whatever cites an article (an AI agent's knowledge-base answers) and the public
 * pages that show articles agree.
 */
export function publicArticleUrl(base: string, helpCenterSlug: string, articleSlug: string): string {
  return `${base.replace(/\/+$/, '')}/hc/${encodeURIComponent(helpCenterSlug)}/articles/${encodeURIComponent(articleSlug)}`;
}

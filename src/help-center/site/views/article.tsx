import type { PublishedArticle, PublishedArticleSummary } from '../../articles/published-article.service.js';
import type { SiteCollection } from '../../collections/published-collection.service.js';
import type { OutlineEntry } from '../article-outline.js';
import type { SiteHelpCenter } from '../site.service.js';
import { type SiteAddress, sitePaths } from '../site-address.js';
import { ArticleList, Breadcrumbs } from './pages.js';

/** What the reader's vote came to, shown after the form posts back (`?feedback=`). */
export type FeedbackState = 'none' | 'yes' | 'no' | 'sent';

export interface ArticleViewProps {
  helpCenter: SiteHelpCenter;
  address: SiteAddress;
  article: PublishedArticle;
  /** The stored, sanitised HTML with ids on its headings. */
  html: string;
  outline: OutlineEntry[];
  trail: SiteCollection[];
  related: PublishedArticleSummary[];
  feedback: FeedbackState;
}

// One formatter for every page: `toLocaleDateString` builds a new one on each call (280 µs, a tenth
// of an article page's CPU in the benchmark).
const LONG_DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const longDate = (iso: string) => LONG_DATE.format(new Date(iso));

function TableOfContents({ outline }: { outline: OutlineEntry[] }) {
  return (
    <nav class="toc" aria-labelledby="toc">
      <h2 id="toc">On this page</h2>
      <ol>
        {outline.map((entry) => (
          <li class={`level-${entry.level}`}>
            <a href={`#${entry.id}`} safe>
              {entry.text}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** "Was this helpful?": a plain form (two submit buttons), then, after a No, a form for a comment. */
function Feedback({ address, article, state }: { address: SiteAddress; article: PublishedArticle; state: FeedbackState }) {
  const action = sitePaths.feedback(address, article);
  if (state === 'yes' || state === 'sent') {
    return (
      <section class="feedback" id="feedback" aria-labelledby="feedback-heading">
        <h2 id="feedback-heading" tabindex="-1">
          Thanks for your feedback
        </h2>
        <p role="status">{state === 'yes' ? 'Glad it helped.' : 'We read every comment and use it to improve this article.'}</p>
      </section>
    );
  }
  if (state === 'no') {
    return (
      <section class="feedback" id="feedback" aria-labelledby="feedback-heading">
        <h2 id="feedback-heading" tabindex="-1">
          Thanks for telling us
        </h2>
        <form method="post" action={action} data-feedback>
          <input type="hidden" name="helpful" value="no" />
          <label for="feedback-comment">What was missing or unclear? (optional)</label>
          <textarea id="feedback-comment" name="comment" maxlength="2000"></textarea>
          <button class="button" type="submit">
            Send
          </button>
        </form>
      </section>
    );
  }
  return (
    <section class="feedback" id="feedback" aria-label="Feedback">
      <form method="post" action={action} data-feedback>
        <fieldset>
          <legend>Was this article helpful?</legend>
          <div class="choices">
            <button class="button secondary" type="submit" name="helpful" value="yes">
              Yes
            </button>
            <button class="button secondary" type="submit" name="helpful" value="no">
              No
            </button>
          </div>
        </fieldset>
      </form>
    </section>
  );
}

export function ArticleView(props: ArticleViewProps) {
  const { address, article } = props;
  const safeHtml = props.html;
  return (
    <div class="wrap page">
      <Breadcrumbs address={address} homeName={props.helpCenter.name} trail={props.trail} />
      <div class={props.outline.length > 1 ? 'layout' : ''}>
        <article aria-labelledby="article-title">
          <h1 id="article-title" safe>
            {article.title}
          </h1>
          {article.description ? (
            <p class="lead" safe>
              {article.description}
            </p>
          ) : (
            ''
          )}
          <p class="updated">
            Updated{' '}
            <time datetime={article.updatedAt} safe>
              {longDate(article.updatedAt)}
            </time>
          </p>
          <div class="prose">{safeHtml}</div>
        </article>
        {props.outline.length > 1 ? <TableOfContents outline={props.outline} /> : ''}
      </div>
      {props.related.length > 0 ? (
        <section class="related" aria-labelledby="related">
          <h2 id="related">Related articles</h2>
          <ArticleList address={address} articles={props.related} />
        </section>
      ) : (
        ''
      )}
      <Feedback address={address} article={article} state={props.feedback} />
    </div>
  );
}

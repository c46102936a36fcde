import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { fieldProblemsOf } from '../../ui/api-field-errors';
import { ARTICLES_KEY, type Article, articleKey, articleQuery, updateArticle } from './articles-api';

export interface Draft {
  title: string;
  html: string;
  tags: string[];
}

export type SaveState = 'saved' | 'unsaved' | 'saving' | 'failed' | 'conflict';

/** The API's words about a refused save, beside the field they name. */
export interface DraftProblems {
  title?: string;
  contentHtml?: string;
  tags?: string;
  rest?: string;
}

/** Another person's save that came first: their version, and the API's words naming them. */
export interface DraftConflict {
  message: string;
  theirs: Article;
}

const AUTOSAVE_DELAY_MS = 1200;
const FIELDS = ['title', 'contentHtml', 'tags'] as const;

const draftOf = (article: Article): Draft => ({ title: article.title, html: article.contentHtml, tags: article.tags });
const sameDraft = (a: Draft, b: Draft) => a.title === b.title && a.html === b.html && a.tags.join() === b.tags.join();

function problemsOf(error: unknown): DraftProblems {
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof ApiError) || error.status !== 400) {
    return { rest: message };
  }
  const problems = fieldProblemsOf(message, FIELDS);
  return { ...problems.fields, ...(problems.rest.length > 0 ? { rest: problems.rest.join('; ') } : {}) };
}

/**
 * An article's draft as edited here: saved on its own a moment after the last change, each save
 * naming the revision it was made on. A refused save keeps what was written; another person's
 * save in between stops autosaving until the user takes their version or overwrites it.
 */
export function useArticleDraft(article: Article) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(article));
  const [state, setState] = useState<SaveState>('saved');
  const [problems, setProblems] = useState<DraftProblems>({});
  const [conflict, setConflict] = useState<DraftConflict | null>(null);
  /** Bumped when the editor must start over from another version. */
  const [generation, setGeneration] = useState(0);
  const saved = useRef({ draft: draftOf(article), revision: article.revision });
  const latest = useRef(draft);
  latest.current = draft;

  const accept = useCallback(
    (updated: Article) => {
      saved.current = { draft: draftOf(updated), revision: updated.revision };
      queryClient.setQueryData(articleKey(updated._id), updated);
      void queryClient.invalidateQueries({ queryKey: [...ARTICLES_KEY, 'list'] });
    },
    [queryClient],
  );

  /** The save on its way: the next waits for it, so it names the revision that save made, not the one before. */
  const inFlight = useRef<Promise<boolean> | null>(null);

  const send = useCallback(
    async (revision: number | undefined): Promise<boolean> => {
      const sent = latest.current;
      // Saved already by the save this one waited for: nothing left to send.
      if (revision === undefined && sameDraft(sent, saved.current.draft)) {
        setState('saved');
        return true;
      }
      setState('saving');
      try {
        const updated = await updateArticle(article._id, {
          title: sent.title,
          contentHtml: sent.html,
          tags: sent.tags,
          ifRevision: revision ?? saved.current.revision,
        });
        accept(updated);
        setProblems({});
        setConflict(null);
        setState(sameDraft(latest.current, sent) ? 'saved' : 'unsaved');
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          const theirs = await queryClient.fetchQuery({ ...articleQuery(article._id), staleTime: 0 });
          setConflict({ message: error.message, theirs });
          setState('conflict');
        } else {
          setProblems(problemsOf(error));
          setState('failed');
        }
        return false;
      }
    },
    [accept, article._id, queryClient],
  );

  const save = useCallback(
    async (revision?: number): Promise<boolean> => {
      const previous = inFlight.current;
      const next = (async () => {
        await previous;
        return send(revision);
      })();
      inFlight.current = next;
      try {
        return await next;
      } finally {
        if (inFlight.current === next) {
          inFlight.current = null;
        }
      }
    },
    [send],
  );

  const change = useCallback((next: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...next }));
    setState((current) => (current === 'conflict' ? current : 'unsaved'));
  }, []);

  useEffect(() => {
    if (state !== 'unsaved') {
      return;
    }
    // Changed back to what is saved (a refused title typed again as it was): saved, with no request.
    if (sameDraft(draft, saved.current.draft)) {
      setProblems({});
      setState('saved');
      return;
    }
    const timer = setTimeout(() => void save(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft, state, save]);

  /** Their version replaces what was written here. */
  const takeTheirs = useCallback(() => {
    if (!conflict) {
      return;
    }
    accept(conflict.theirs);
    setDraft(draftOf(conflict.theirs));
    setConflict(null);
    setState('saved');
    setGeneration((value) => value + 1);
  }, [accept, conflict]);

  /** What was written here replaces their version: saved on the revision they made. */
  const overwrite = useCallback(() => (conflict ? save(conflict.theirs.revision) : Promise.resolve(false)), [conflict, save]);

  /** Saves now what is not saved yet; whether the draft is saved after. */
  const flush = useCallback(
    async () => (sameDraft(latest.current, saved.current.draft) && state !== 'conflict' ? true : save()),
    [save, state],
  );

  return { draft, change, state, problems, conflict, takeTheirs, overwrite, flush, accept, generation };
}

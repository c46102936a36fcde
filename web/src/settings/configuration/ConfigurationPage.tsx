import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { useMe } from '../../auth/session';
import { Button } from '../../ui/Button';
import { CheckboxField } from '../../ui/FormField';
import { PageHeader } from '../../ui/PageHeader';
import { exportFileName, parseDocument, problemsOf } from './configuration-file';
import { exportConfiguration, type ImportAnswer, importConfiguration } from './configuration-transfer';
import { ImportChanges } from './ImportChanges';

/** A document read from a file, waiting for its preview or its "Apply". */
interface PendingImport {
  fileName: string;
  document: unknown;
}

/**
 * The organization's set-up as one file: "Export" downloads it; "Import" reads one, shows what it
 * would change (a dry run the API judges exactly as the real import), then "Apply" writes it in
 * one transaction. Moving a set-up between two instances is an export on one and an import on the
 * other.
 */
export function ConfigurationPage() {
  const me = useMe();
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<PendingImport | null>(null);
  const [prune, setPrune] = useState(false);
  const [fileProblem, setFileProblem] = useState<string | null>(null);

  const download = useMutation({
    mutationFn: exportConfiguration,
    onSuccess: (document) => {
      const url = URL.createObjectURL(new Blob([`${JSON.stringify(document, null, 2)}\n`], { type: 'application/json' }));
      const link = Object.assign(window.document.createElement('a'), {
        href: url,
        download: exportFileName(me.organization.name, new Date()),
      });
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    },
  });
  const preview = useMutation({
    mutationFn: (next: { document: unknown; prune: boolean }) =>
      importConfiguration(next.document, { dryRun: true, prune: next.prune }),
  });
  const apply = useMutation({
    mutationFn: (next: { document: unknown; prune: boolean }) =>
      importConfiguration(next.document, { dryRun: false, prune: next.prune }),
    // Everything the document touches may have changed: teams, fields, views, macros…
    onSuccess: () => queryClient.invalidateQueries(),
  });

  const judge = (document: unknown, withPrune: boolean) => {
    apply.reset();
    preview.mutate({ document, prune: withPrune });
  };
  const readFile = async (file: File | undefined) => {
    setFileProblem(null);
    setPending(null);
    preview.reset();
    apply.reset();
    if (!file) {
      return;
    }
    const parsed = parseDocument(await file.text());
    if ('problem' in parsed) {
      setFileProblem(parsed.problem);
      return;
    }
    setPending({ fileName: file.name, document: parsed.document });
    judge(parsed.document, prune);
  };

  return (
    <div>
      <PageHeader
        title="Import and export"
        description="The organization's set-up as one file: teams, tags, hours, routing rules, custom fields, shared macros and views, mailboxes and webhooks. Objects refer to each other by name, and no secret is ever in it."
      />
      <div className="flex max-w-3xl flex-col gap-8 p-4">
        <section aria-labelledby="export-heading" className="flex flex-col gap-2">
          <h2 id="export-heading" className="text-base font-semibold">
            Export
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Download the set-up to keep it in version control, or to import it into another Switchboard. Mailbox passwords,
            webhook secrets and API keys stay here.
          </p>
          <div>
            <Button variant="primary" onClick={() => download.mutate()} disabled={download.isPending}>
              <Download size={14} aria-hidden />
              Export
            </Button>
          </div>
          {download.error ? <Problem message={download.error.message} /> : null}
        </section>

        <section aria-labelledby="import-heading" className="flex flex-col gap-3">
          <h2 id="import-heading" className="text-base font-semibold">
            Import
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Pick a file exported from Switchboard. You see what it would change before anything is written. Objects are matched by
            name; nothing is deleted unless you ask for it below.
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <Button onClick={() => fileInput.current?.click()}>
              <Upload size={14} aria-hidden />
              Import
            </Button>
            <input
              ref={fileInput}
              type="file"
              accept="application/json,.json"
              // Opened by the "Import" button; kept out of the page so that it is the one control.
              hidden
              onChange={(event) => {
                void readFile(event.currentTarget.files?.[0]);
                event.currentTarget.value = '';
              }}
            />
            {pending ? <span className="text-sm text-zinc-600 dark:text-zinc-400">{pending.fileName}</span> : null}
          </div>
          <CheckboxField
            label="Delete what the file leaves out"
            hint="Teams are archived rather than deleted. Sections the file does not have are left alone."
            checked={prune}
            onChange={(event) => {
              const next = event.currentTarget.checked;
              setPrune(next);
              if (pending) {
                judge(pending.document, next);
              }
            }}
          />
          {fileProblem ? <Problem message={fileProblem} /> : null}
          {preview.isPending ? <p className="text-sm text-zinc-500">Checking the file…</p> : null}
          {preview.error ? <Refusal error={preview.error} /> : null}
          {pending && preview.data && !apply.data ? (
            <Preview
              answer={preview.data}
              applying={apply.isPending}
              onApply={() => apply.mutate({ document: pending.document, prune })}
            />
          ) : null}
          {apply.error ? <Refusal error={apply.error} /> : null}
          {apply.data ? (
            <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
              Applied {apply.data.changes.length} {apply.data.changes.length === 1 ? 'change' : 'changes'}.
            </p>
          ) : null}
        </section>
      </div>
    </div>
  );
}

function Preview({ answer, applying, onApply }: { answer: ImportAnswer; applying: boolean; onApply: () => void }) {
  if (answer.changes.length === 0) {
    return (
      <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
        No changes: this organization already holds what the file says.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      <ImportChanges changes={answer.changes} />
      <div>
        <Button variant="primary" onClick={onApply} disabled={applying}>
          Apply
        </Button>
      </div>
    </div>
  );
}

/** The API refuses a document whole, with every problem: listed one per line. */
function Refusal({ error }: { error: Error }) {
  const problems = problemsOf(error.message);
  const status = error instanceof ApiError && error.status > 0 ? ` (${error.status})` : '';
  return (
    <div
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm [overflow-wrap:anywhere] text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      <p className="font-medium">The file was refused{status}; nothing was written.</p>
      <ul className="mt-1 list-disc pl-5">
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </div>
  );
}

function Problem({ message }: { message: string }) {
  return (
    <p role="alert" className="text-sm text-red-700 dark:text-red-400">
      {message}
    </p>
  );
}

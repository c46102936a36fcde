// The help center's only script, and nothing needs it: every form works without it. It sends the
// "Was this helpful?" form in the background and puts the answer in place of the form, so the
// reader keeps their place in the article.
document.addEventListener('submit', async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-feedback')) {
    return;
  }
  event.preventDefault();
  const body = new URLSearchParams(new FormData(form, event.submitter));
  for (const button of form.querySelectorAll('button')) {
    button.disabled = true;
  }
  try {
    const response = await fetch(form.action, { method: 'POST', body, credentials: 'same-origin' });
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    const next = page.getElementById('feedback');
    const current = document.getElementById('feedback');
    if (!response.ok || !next || !current) {
      throw new Error(`feedback answered ${response.status}`);
    }
    current.replaceWith(next);
    (next.querySelector('textarea') ?? next.querySelector('h2'))?.focus();
  } catch {
    // Let the browser post it the plain way, which shows whatever went wrong.
    form.removeAttribute('data-feedback');
    form.requestSubmit(event.submitter);
  }
});

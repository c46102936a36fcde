import { type SiteAddress, sitePaths } from '../site-address.js';

/** A page that only says something: not found, gone, a refusal. */
export function MessageView(props: { address: SiteAddress | null; title: string; paragraphs: string[] }) {
  return (
    <div class="wrap page">
      <h1 safe>{props.title}</h1>
      {props.paragraphs.map((paragraph) => (
        <p safe>{paragraph}</p>
      ))}
      {props.address ? (
        <p>
          <a href={sitePaths.home(props.address)}>Go to the help center's home</a> or{' '}
          <a href={sitePaths.search(props.address)}>search its articles</a>.
        </p>
      ) : (
        ''
      )}
    </div>
  );
}

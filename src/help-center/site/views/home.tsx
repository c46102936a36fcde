import type { CollectionCard, SiteHelpCenter } from '../site.service.js';
import type { SiteAddress } from '../site-address.js';
import { SearchForm } from './layout.js';
import { CollectionCards } from './pages.js';

export function HomeView(props: { helpCenter: SiteHelpCenter; address: SiteAddress; collections: CollectionCard[] }) {
  const { helpCenter, address } = props;
  const description = helpCenter.meta.description;
  return (
    <>
      <section class="hero">
        <div class="wrap">
          <h1 safe>{helpCenter.meta.title ?? helpCenter.name}</h1>
          {description ? <p safe>{description}</p> : ''}
          <SearchForm address={address} id="home-search" />
        </div>
      </section>
      <div class="wrap page">
        {props.collections.length > 0 ? (
          <CollectionCards address={address} cards={props.collections} headingLevel={2} />
        ) : (
          <p class="notice">No articles are published here yet.</p>
        )}
      </div>
    </>
  );
}

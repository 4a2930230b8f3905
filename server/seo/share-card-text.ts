/**
 * What a share card says: the group's name (its branding), the page's title and a line under it,
 * read from the content API like the page itself. An item's card carries the item's own title;
 * any other page's, its name and line from the route table.
 */
import { orEmpty, categoryName } from '../../shared/site/navigation.js';
import { ROUTES } from '../../shared/site/route-table.js';
import type { ContentApi } from '../../shared/content-api.js';
import { problem } from '../../shared/problems.js';
import type { CardAddress } from './share-card-address.js';
import { joinParts } from './plain-text.js';

export interface CardText {
  brand: string;
  title: string;
  subtitle: string | undefined;
}

/** The text of a card; throws the content API's error (a 404 for an item it does not know). */
export async function cardText(card: CardAddress, api: ContentApi): Promise<CardText> {
  const group = await api.get('groupIntroduction');
  const brand = group.name;
  switch (card.route) {
    case 'contentDetail':
    case 'reportDetail': {
      const item = await api.get('newsDetail', { id: card.id });
      return { brand, title: item.title, subtitle: joinParts([categoryName(item.categoryId, orEmpty(undefined)), item.date], ' · ') };
    }
    case 'expertDetail': {
      const expert = await api.get('expert', { id: card.id });
      return { brand, title: expert.name, subtitle: joinParts([expert.title, expert.hospital], ' · ') };
    }
    case 'hospital': {
      const hospital = (await api.get('domesticHospitals')).find((h) => h.id === card.id);
      if (!hospital) throw problem('not_found', `no hospital ${card.id}`);
      return { brand, title: hospital.name, subtitle: joinParts([hospital.city, hospital.address], ' · ') };
    }
    case 'home':
      return { brand, title: group.slogan, subtitle: undefined };
    default: {
      const route = ROUTES[card.route];
      return { brand, title: route.title, subtitle: 'lead' in route ? route.lead : undefined };
    }
  }
}

/** A place on a map, opened beside the site (on a phone, in its map app where it has one). */
export function MapLink({ href, place }: { href: string; place: string }) {
  return (
    <a className="map-link" href={href} target="_blank" rel="noopener noreferrer">
      查看地图<span className="sr-only">：{place}</span>
    </a>
  );
}

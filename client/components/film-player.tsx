/**
 * A published film, played by the browser's own <video>: its controls (keyboard operable), the
 * poster until it plays, nothing downloaded before the visitor asks (preload="none"), and its
 * captions as WebVTT tracks, the first one shown by default.
 */
import type { MediaImage, Video } from '../../shared/contract/entities.js';

export function FilmPlayer({ video, poster, title }: { video: Video; poster: MediaImage | undefined; title: string }) {
  return (
    <video
      className="film-player media"
      controls
      preload="none"
      playsInline
      poster={poster?.src}
      width={1280}
      height={720}
      aria-label={`${title}（视频）`}
    >
      {video.sources.map((s) => (
        <source key={s.src.src} src={s.src.src} type={s.type} />
      ))}
      {video.captions.map((c, i) => (
        <track key={c.src.src} kind="captions" src={c.src.src} srcLang={c.lang} label={c.label} default={i === 0} />
      ))}
      {/* Only a browser without <video> shows this. */}
      <a href={video.sources.at(-1)!.src.src}>下载{title}</a>
    </video>
  );
}

/**
 * A published film, played by the browser's own <video>: its controls (keyboard operable),
 * nothing downloaded before the visitor asks (preload="none"), and its captions as WebVTT tracks,
 * the first one shown by default. The controls are asked for once it plays: the browser builds
 * them (a styled tree of its own, about 40 ms of a phone's start, docs/decisions/054) only when
 * shown, and until then its poster covers it with a large play button:
 * a picture of the column's width (srcset, so that no screen gets a poster smaller than it draws,
 * and a placeholder if it fails), which plays the film in place; without JavaScript, a link to
 * the film's file.
 */
import { useEffect, useRef, useState } from 'react';
import type { MediaImage, Video } from '../../shared/contract/entities.js';
import { ContentImage, standardSizes } from './content-image.js';

/** The player takes the column: the page's width less its margins on a phone, 1416 of 1920 design px elsewhere. */
const PLAYER_SIZES = standardSizes('calc(100vw - 32px)', ['min(100vw - 57px, 1216px)'], '74vw');
/** In the large-text mode's fluid layout: the column, at most 1770 px less its margins. */
const PLAYER_LARGE_SIZES = '(max-width: 500px) calc(100vw - 32px), (max-width: 1769px) calc(100vw - 64px), 1722px';

export function FilmPlayer({
  video,
  poster,
  title,
  priority,
}: {
  video: Video;
  poster: MediaImage | undefined;
  title: string;
  priority?: boolean;
}) {
  const player = useRef<HTMLVideoElement>(null);
  const [started, setStarted] = useState(false);
  // The cover had the focus; its controls take it once shown.
  useEffect(() => {
    if (started) player.current?.focus();
  }, [started]);
  const file = video.sources.at(-1)!.src.src;
  return (
    <div className="film">
      <video
        ref={player}
        className="film-player"
        controls={started}
        preload="none"
        playsInline
        width={1280}
        height={720}
        aria-label={`${title}（视频）`}
        onPlay={() => setStarted(true)}
      >
        {video.sources.map((s) => (
          <source key={s.src.src} src={s.src.src} type={s.type} />
        ))}
        {video.captions.map((c, i) => (
          <track key={c.src.src} kind="captions" src={c.src.src} srcLang={c.lang} label={c.label} default={i === 0} />
        ))}
        {/* Only a browser without <video> shows this. */}
        <a href={file}>下载{title}</a>
      </video>
      {started ? null : (
        <a
          className="film-cover"
          href={file}
          aria-label={`播放${title}`}
          onClick={(event) => {
            event.preventDefault();
            setStarted(true);
            void player.current?.play();
          }}
        >
          <ContentImage
            className="media"
            image={poster}
            sizes={PLAYER_SIZES}
            largeSizes={PLAYER_LARGE_SIZES}
            width={1280}
            height={720}
            priority={priority}
          />
        </a>
      )}
    </div>
  );
}

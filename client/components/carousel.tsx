/**
 * The home banner carousel. The server draws the first slide; autoplay starts in the browser
 * only when the visitor has not asked for reduced motion, and pauses on hover or focus. Its
 * pause button, shown at every width, stops it (or starts it, under reduced motion) until the
 * visitor presses it again (WCAG 2.2.2).
 * Only the first slide's picture is in the page as served (it is the page's LCP); another
 * slide's picture is added when that slide is shown, and the next one's once the page has
 * loaded, so that it is ready for the transition without competing with the first. Each slide
 * offers its own page and the booking section.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { Banner } from '../../shared/contract/entities.js';
import { bookingHref } from '../../shared/site/href.js';
import { ContentImage, standardSizes } from './content-image.js';
import { Typeset } from '../typeset/typeset.js';

const AUTOPLAY_MS = 6000;
/**
 * The banner's picture is three times as wide as it is tall and fills its box's height, cut on
 * the left: on a desktop it is drawn about 80vw wide, and in the fluid range as wide as its box's
 * height allows. A phone gets its right part, twice as wide as tall (the `right-2x1` crop, the
 * shape of its box there), the screen's width.
 */
const BANNER_SIZES = standardSizes(
  'max(100vw, 360px)',
  ['(max-width: 832px) min(150vw, 964px)', '(max-width: 1056px) min(114vw, 1122px)', 'min(114vw, 1283px)'],
  '80vw',
);
/** The large-text mode: a box of the column's width up to 52 em (1170 px), then its right half. */
const BANNER_LARGE_SIZES = '(max-width: 500px) max(100vw, 360px), (max-width: 1169px) min(150vw, 1080px), min(114vw, 1460px)';

export function BannerCarousel({ banners }: { banners: Banner[] }) {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [autoplay, setAutoplay] = useState(false);
  /** The visitor's choice by the pause button, over the motion preference (null: none made). */
  const [chosen, setChosen] = useState<boolean | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [drawn, setDrawn] = useState<readonly number[]>([0]);
  const count = banners.length;

  useEffect(() => {
    if (document.readyState === 'complete') {
      const timer = window.setTimeout(() => setLoaded(true), 1000);
      return () => window.clearTimeout(timer);
    }
    const onLoad = () => setLoaded(true);
    window.addEventListener('load', onLoad, { once: true });
    return () => window.removeEventListener('load', onLoad);
  }, []);

  // The pictures drawn once stay, so that a slide fading out keeps its picture.
  const wanted = loaded && count > 1 ? [index, (index + 1) % count] : [index];
  if (!wanted.every((i) => drawn.includes(i))) setDrawn([...new Set([...drawn, ...wanted])]);

  useEffect(() => {
    const query = window.matchMedia('(prefers-reduced-motion: reduce)');
    const update = () => setAutoplay(!query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);

  const playing = chosen ?? autoplay;
  useEffect(() => {
    if (!playing || paused || count < 2) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % count), AUTOPLAY_MS);
    return () => window.clearInterval(timer);
  }, [playing, paused, count]);

  if (count === 0) return null;
  const go = (i: number) => setIndex((i + count) % count);

  return (
    <section
      className="carousel"
      aria-roledescription="轮播"
      aria-label="首页横幅"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setPaused(false);
      }}
    >
      <div className="carousel-track">
        {banners.map((b, i) => {
          const current = i === index;
          return (
            <div
              key={b.id}
              className="slide"
              data-current={String(current)}
              role="group"
              aria-roledescription="幻灯片"
              aria-label={`第 ${i + 1} 张，共 ${count} 张`}
              aria-hidden={current ? undefined : true}
              inert={!current}
            >
              {current || drawn.includes(i) ? (
                <ContentImage
                  className="slide-image"
                  bleed="left"
                  image={b.image}
                  sizes={BANNER_SIZES}
                  largeSizes={BANNER_LARGE_SIZES}
                  widerThanBox
                  phone="right-2x1"
                  alt={b.title}
                  width={1920}
                  height={640}
                  priority={i === 0}
                />
              ) : null}
              <div className="slide-caption">
                <div className="container">
                  <p className="slide-title">
                    <Typeset text={b.title} />
                  </p>
                  {b.subtitle ? (
                    <p className="slide-subtitle">
                      <Typeset text={b.subtitle} />
                    </p>
                  ) : null}
                  <div className="slide-actions">
                    <Link to={b.link} className="btn btn-primary">
                      了解更多<span className="sr-only">：{b.title}</span>
                    </Link>
                    <Link to={bookingHref()} className="btn btn-ghost">
                      预约咨询
                    </Link>
                  </div>
                </div>
              </div>
            </div>
          );
        })}
      </div>
      {count > 1 ? (
        <div className="carousel-controls">
          <button
            type="button"
            className="carousel-arrow carousel-play"
            data-playing={String(playing)}
            aria-label={playing ? '暂停轮播' : '播放轮播'}
            onClick={() => setChosen(!playing)}
          />
          <button type="button" className="carousel-arrow chevron prev" aria-label="上一张" onClick={() => go(index - 1)} />
          <div className="carousel-dots">
            {banners.map((b, i) => (
              <button
                key={b.id}
                type="button"
                className="carousel-dot"
                aria-label={`第 ${i + 1} 张：${b.title}`}
                aria-current={i === index ? 'true' : undefined}
                onClick={() => go(i)}
              />
            ))}
          </div>
          <button type="button" className="carousel-arrow chevron forward next" aria-label="下一张" onClick={() => go(index + 1)} />
        </div>
      ) : null}
    </section>
  );
}

/**
 * At the end of a treatment or an article: how to book, by phone or through the contact page's
 * booking section (the site takes no bookings itself); nothing when the content names no phone.
 */
import { useId } from 'react';
import { Link } from 'react-router';
import { bookingHref, telHref } from '../../shared/site/href.js';
import { orEmpty } from '../../shared/site/navigation.js';
import { useLayoutData } from '../router-hooks.js';

export function BookingPrompt({ question }: { question: string }) {
  const { contact } = orEmpty(useLayoutData());
  const phone = contact?.booking?.phone ?? contact?.phone;
  const id = useId();
  if (!phone) return null;
  return (
    <aside className="booking-prompt" aria-labelledby={id}>
      <div>
        <h2 className="booking-prompt-title" id={id}>
          预约咨询
        </h2>
        <p>{question}可致电预约热线，或查看微信预约与就诊流程。</p>
      </div>
      <div className="booking-prompt-actions">
        <a className="btn btn-primary icon-phone" href={telHref(phone)}>
          致电 <span className="phone-number">{phone}</span>
        </a>
        <Link className="btn btn-ghost" to={bookingHref()}>
          预约方式
        </Link>
      </div>
    </aside>
  );
}

/**
 * 联系我们: the group's contact details (its hours as a list), how to book (by phone, with its
 * hours, or WeChat), and every branch's address, phone and map.
 */
import { telHref } from '../../shared/site/href.js';
import { Address } from '../components/address.js';
import { FactList } from '../components/fact-list.js';
import { HospitalLink } from '../components/hospital-link.js';
import { ListBlock } from '../components/list-block.js';
import { MapLink } from '../components/map-link.js';
import { PageBanner } from '../components/page-banner.js';
import { Schedule } from '../components/schedule.js';
import { WechatQrCode } from '../components/wechat-qr-code.js';
import { usePageData } from '../router-hooks.js';
import '../styles/hospitals.css';

export default function ContactPage() {
  const contact = usePageData<'contact'>();
  const { booking, wechat } = contact;
  return (
    <>
      <PageBanner />
      <div className="page-body soft">
        <div className="container">
          <section className="card contact-main" aria-labelledby="contact-title">
            <div className="contact-intro">
              <p className="eyebrow">联系方式</p>
              <h2 id="contact-title">{contact.groupName}</h2>
              <p className="contact-phone-label">全国咨询热线</p>
              <a className="contact-phone" href={telHref(contact.phone)}>
                {contact.phone}
              </a>
            </div>
            <FactList
              className="contact-facts"
              facts={[
                [
                  '集团地址',
                  <>
                    <Address text={contact.address} />
                    {contact.mapUrl ? <MapLink href={contact.mapUrl} place="集团地址" /> : null}
                  </>,
                ],
                ['邮政编码', contact.postcode],
                ...(contact.email ? [['电子邮箱', <a href={`mailto:${contact.email}`}>{contact.email}</a>] as const] : []),
                ['服务时间', <Schedule text={contact.hours} name="服务时间" />],
              ]}
            />
          </section>
          {booking || wechat ? (
            <section className="booking" id="booking" aria-labelledby="booking-title">
              {booking ? (
                <>
                  <div className="card booking-card booking-call">
                    <h2 className="list-title" id="booking-title">
                      预约咨询
                    </h2>
                    <a className="booking-phone icon-phone" href={telHref(booking.phone)}>
                      {booking.phone}
                    </a>
                    <Schedule text={booking.hours} name="预约时间" />
                    <p>{booking.note}</p>
                    <a className="btn btn-primary icon-phone" href={telHref(booking.phone)}>
                      致电预约
                    </a>
                  </div>
                  <div className="card booking-card">
                    <h3>就诊流程</h3>
                    <ol className="booking-steps">
                      <li>致电预约热线{wechat ? '或通过微信公众号' : ''}提交就诊需求</li>
                      <li>客服专员确认就诊院区、专家与时间</li>
                      <li>按约定时间到院，凭有效证件就诊</li>
                    </ol>
                  </div>
                </>
              ) : (
                <h2 className="sr-only" id="booking-title">
                  预约咨询
                </h2>
              )}
              {wechat ? (
                <div className="card booking-card booking-wechat">
                  <h3>微信预约</h3>
                  <WechatQrCode wechat={wechat} size={200} />
                  <p className="wechat-hint">长按识别二维码</p>
                  <p>公众号：{wechat.account}</p>
                  <p>{wechat.note}</p>
                </div>
              ) : null}
            </section>
          ) : null}
          {contact.branches.length > 0 ? (
            <section className="branches" aria-labelledby="branches-title">
              <ListBlock title="各院区联系方式" titleId="branches-title" aside={`共 ${contact.branches.length} 家`} empty={false}>
                <ul className="branch-list">
                  {contact.branches.map((b) => (
                    <li key={b.name} className="branch-row">
                      <h3>
                        <HospitalLink name={b.name} />
                      </h3>
                      <p className="branch-address">
                        <Address text={b.address} />
                      </p>
                      <a className="branch-phone" href={telHref(b.phone)}>
                        {b.phone}
                      </a>
                      {b.mapUrl ? <MapLink href={b.mapUrl} place={b.name} /> : <span />}
                    </li>
                  ))}
                </ul>
              </ListBlock>
            </section>
          ) : null}
        </div>
      </div>
    </>
  );
}

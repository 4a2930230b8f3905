import type { ContactUs } from '../../shared/contract/entities.js';

/** The WeChat official account's QR code, named for a screen reader by the account it opens. */
export function WechatQrCode({ wechat, size }: { wechat: NonNullable<ContactUs['wechat']>; size: number }) {
  return (
    <img src={wechat.image} alt={`微信公众号“${wechat.account}”的二维码`} width={size} height={size} loading="lazy" decoding="async" />
  );
}

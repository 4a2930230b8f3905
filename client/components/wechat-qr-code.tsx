import type { ContactUs } from '../../shared/contract/entities.js';
import { ContentImage } from './content-image.js';

/** The WeChat official account's QR code, named for a screen reader by the account it opens. */
export function WechatQrCode({ wechat, size }: { wechat: NonNullable<ContactUs['wechat']>; size: number }) {
  return <ContentImage image={wechat.image} sizes={`${size}px`} alt={`微信公众号“${wechat.account}”的二维码`} width={size} height={size} />;
}

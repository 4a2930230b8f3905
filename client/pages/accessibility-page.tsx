/**
 * 无障碍说明: what the site offers a visitor who sees poorly or is not used to computers, how to use
 * it (辅助浏览, the keyboard), and whom to call for help (the booking line, from the content).
 * The preferences can be set here too: without scripts on a phone, where the top bar has no room
 * for 辅助浏览, this page (linked from every page's footer) is where they are.
 */
import { Link } from 'react-router';
import { href, telHref } from '../../shared/site/href.js';
import { A11yToolbar } from '../components/a11y-toolbar.js';
import { PageBanner } from '../components/page-banner.js';
import { usePageData } from '../router-hooks.js';
import '../styles/accessibility.css';

const KEYS: readonly [keys: string, what: string][] = [
  ['Tab', '移到下一个链接或按钮；同时按住 Shift 键，回到上一个。所在的位置会有一圈明显的粗框。'],
  ['回车键', '打开链接；按下按钮。'],
  ['空格键', '按下按钮，展开或收起“辅助浏览”、菜单和搜索。'],
  ['Esc', '关闭打开的菜单、导航面板、搜索和“辅助浏览”；在屏幕下方的朗读栏里按 Esc，停止朗读。'],
  ['Ctrl 与 +、−', '放大、缩小整个页面（苹果电脑用 ⌘ 键），按 Ctrl 与 0 恢复原样。'],
];

export default function AccessibilityPage() {
  const contact = usePageData<'accessibility'>();
  const phone = contact.booking?.phone ?? contact.phone;
  const hours = contact.booking?.hours ?? contact.hours;
  return (
    <>
      <PageBanner />
      <div className="page-body">
        <div className="container access-page">
          <section className="access-section" aria-labelledby="access-tools">
            <h2 id="access-tools">辅助浏览</h2>
            <p>每一页的最上方都有“辅助浏览”按钮（在手机上，它在“菜单”里），点开后可以选择：</p>
            <dl className="access-list">
              <dt>长者模式</dt>
              <dd>字号放大，页面按屏幕的宽度重新排列，不会随窗口变小。</dd>
              <dt>高对比度</dt>
              <dd>
                文字、按钮和边框的颜色更深，与背景对比更强。如果您已经在电脑或手机的系统设置里打开了“增强对比度”，本网站会自动使用高对比度，您也可以在这里关掉它。
              </dd>
              <dt>语音朗读</dt>
              <dd>
                一句一句地朗读本页的正文，正在读的句子会用黄色标出，并自动移到屏幕中间；屏幕下方会出现“暂停”“继续”和“停止”按钮。只有浏览器带有中文（普通话）语音时才会出现这一项；如果看不到，可以使用新版的
                Edge、Chrome 或 Safari 浏览器，或在系统设置里添加中文语音。
              </dd>
              <dt>大鼠标</dt>
              <dd>鼠标指针放大到原来的三倍左右，黑色带白边，在深色和浅色的背景上都看得清。</dd>
              <dt>重置</dt>
              <dd>把以上设置全部恢复为默认。</dd>
            </dl>
            <p>
              您的选择保存在这个浏览器里，不需要注册或登录，打开其他页面时依然有效；换一台电脑或换一个浏览器，需要重新选择。除语音朗读外，这些设置在浏览器关闭了脚本时也能使用。
            </p>
            <A11yToolbar place="page" />
          </section>

          <section className="access-section" aria-labelledby="access-keys">
            <h2 id="access-keys">用键盘浏览</h2>
            <p>
              不用鼠标，只用键盘也能使用本网站的全部功能。每一页第一次按 Tab 键，会出现“跳到主要内容”，按回车键可以跳过页头，直接阅读正文。
            </p>
            <table className="access-keys">
              <caption className="sr-only">常用按键</caption>
              <thead>
                <tr>
                  <th scope="col">按键</th>
                  <th scope="col">作用</th>
                </tr>
              </thead>
              <tbody>
                {KEYS.map(([keys, what]) => (
                  <tr key={keys}>
                    <th scope="row">
                      <kbd>{keys}</kbd>
                    </th>
                    <td>{what}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>

          <section className="access-section" aria-labelledby="access-more">
            <h2 id="access-more">其他</h2>
            <ul className="access-points">
              <li>本网站没有弹出窗口，也没有广告。</li>
              <li>首页的轮播图在鼠标移到上面或用键盘选中时停止切换；如果您在系统里打开了“减少动态效果”，轮播图不会自动播放。</li>
              <li>
                页面的标题、导航、正文和页脚都有清楚的标记，图片配有文字说明，可以配合读屏软件使用，例如 Windows 的“讲述人”和
                NVDA、苹果设备的 VoiceOver、安卓手机的 TalkBack。
              </li>
            </ul>
          </section>

          <section className="access-section access-help" aria-labelledby="access-help">
            <h2 id="access-help">需要帮助？</h2>
            <p>
              如果您在浏览网站、查找信息或预约时遇到困难，欢迎致电 <a href={telHref(phone)}>{phone}</a>（{hours}
              ），工作人员会帮助您。各院区的地址和电话在
              <Link to={href('contact')}>联系我们</Link>页面。
            </p>
            <p>如果您发现本网站有不方便使用的地方，也欢迎打电话告诉我们，我们会尽快改进。</p>
          </section>
        </div>
      </div>
    </>
  );
}

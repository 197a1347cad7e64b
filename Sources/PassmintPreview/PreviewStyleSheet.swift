import Passmint

/// The preview page's style sheet: Wallet's card proportions (a 320 px wide phone card, a 184 px Watch card), system
/// fonts, the blurred background image, the strip under the primary fields, and the voided and expired looks.
enum PreviewStyleSheet {
    static let css = """
        *{box-sizing:border-box}
        body{margin:0;padding:24px;background:#e5e5ea;color:#1c1c1e;font:14px -apple-system,"SF Pro Text","Helvetica Neue",\
        "Noto Sans","DejaVu Sans",Arial,sans-serif}
        .page-header h1{font-size:20px;margin:0 0 4px}.page-header .source{margin:0 0 16px;color:#636366;font-size:12px}
        .devices{display:flex;flex-wrap:wrap;gap:32px;align-items:flex-start}
        .device h2{font-size:13px;text-transform:uppercase;letter-spacing:.06em;color:#636366;margin:0 0 8px}
        .phone{display:flex;flex-direction:column;gap:20px;width:320px}.phone h2{margin-bottom:-12px}
        .pass{position:relative;overflow:hidden;border-radius:12px;background:var(--bg);color:var(--fg);\
        box-shadow:0 2px 12px rgba(0,0,0,.25)}
        .pass.front{width:320px;min-height:410px;padding:12px 14px 16px;display:flex;flex-direction:column;gap:10px}
        .pass>*{position:relative}
        .background-image{position:absolute!important;inset:-24px;background-size:cover;background-position:center;filter:blur(12px);\
        transform:scale(1.1)}
        .top{display:flex;justify-content:space-between;align-items:flex-start;gap:8px;min-height:34px}
        .brand{display:flex;align-items:center;gap:8px;min-width:0;flex:1 1 auto}
        .fields.header{flex:none}.fields.header .field{flex:none}.fields.header .value{white-space:nowrap}
        .brand img.logo{max-height:34px;max-width:110px;object-fit:contain}
        .logo-text{font-size:17px;font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
        .fields{display:flex;gap:8px;justify-content:space-between}.fields .field{min-width:min-content;flex:0 1 auto}
        .fields .field:last-child:not(:first-child){text-align:right}
        .label{color:var(--label);font-size:10px;font-weight:600;text-transform:uppercase;letter-spacing:.04em;white-space:nowrap;\
        overflow:hidden;text-overflow:ellipsis}
        .value{font-size:15px;overflow-wrap:break-word}
        .fields.header .value{font-size:16px}
        .fields.primary .value{font-size:30px;font-weight:300;line-height:1.1}
        .fields.primary .field{flex:1 1 auto}
        .strip{margin:0 -14px;min-height:123px;padding:12px 14px;background-size:cover;background-position:center;display:flex;\
        align-items:flex-end}
        .style-eventTicket .strip{min-height:98px}.strip .value,.strip .label{text-shadow:0 1px 3px rgba(0,0,0,.45)}
        .with-thumbnail{display:flex;justify-content:space-between;gap:8px}
        .with-thumbnail .beside{display:flex;flex-direction:column;gap:10px}
        img.thumbnail{width:90px;height:90px;object-fit:cover;border-radius:4px;flex:none}
        .boarding{align-items:center}.boarding .field:last-child{text-align:right}
        .transit{flex:none;display:flex;align-items:center;color:var(--fg)}
        img.footer{max-width:286px;max-height:15px;align-self:center;object-fit:contain}
        .bottom{margin-top:auto;display:flex;flex-direction:column;align-items:center;gap:6px}
        figure.barcode{margin:0;background:#fff;border-radius:6px;padding:8px;display:flex;flex-direction:column;align-items:center}
        figure.barcode svg{display:block}
        figure.barcode.square svg{width:150px;height:150px}
        figure.barcode.rectangular svg{width:276px;height:auto;max-height:110px}
        figure.barcode figcaption{color:#000;font-size:12px;margin-top:4px}
        .nfc{font-size:13px;padding:6px 10px;border:1px solid currentColor;border-radius:14px}
        .state-notice{font-weight:600;font-size:14px;padding:6px 10px;border-radius:6px;background:rgba(0,0,0,.55);color:#fff}
        .pass.voided,.pass.expired{filter:grayscale(.85) opacity(.8)}
        .pass.back{width:320px;padding:16px;background:#fff;color:#1c1c1e}
        .pass.back h3{margin:0 0 8px;font-size:17px}.pass.back h4{margin:12px 0 4px;font-size:13px;color:#636366}
        .back-field{padding:8px 0;border-top:1px solid #d1d1d6}.back-field .label{color:#636366;text-transform:none;font-size:12px}
        .back-field .value{font-size:14px}.back-field a{color:#0a64d2}
        .watch{width:200px}
        .pass.watch-card{width:184px;padding:8px 10px 12px;display:flex;flex-direction:column;gap:6px;border-radius:22px}
        .watch-card .brand img.logo{max-height:22px;max-width:80px}.watch-card .logo-text{font-size:13px}
        .watch-card .fields{flex-wrap:wrap;gap:4px 8px}.watch-card .value{font-size:12px}
        .watch-card .fields.primary .value{font-size:20px}.watch-card .label{font-size:9px}
        .watch-card .top{flex-wrap:wrap}.watch-card .fields.header{flex-wrap:nowrap}
        .watch-card .fields .field{flex:1 1 40%}.watch-card .fields .field:last-child:not(:first-child){text-align:left}
        .boarding-watch .value{display:flex;align-items:center;gap:6px}.boarding-watch .transit svg{width:18px;height:18px}
        .watch-card img.footer{max-width:100%}
        .watch-card figure.barcode.square svg{width:132px;height:132px}
        .watch-card figure.barcode.rectangular svg{width:150px}
        .poster{padding:0!important;gap:0!important;background:var(--bg)}
        .artwork{min-height:260px;background-size:cover;background-position:center;display:flex;flex-direction:column;\
        justify-content:space-between;padding:14px}
        .artwork.darkened{box-shadow:inset 0 70px 50px -30px rgba(0,0,0,.45)}
        .poster-top{display:flex;justify-content:space-between;align-items:center}
        .poster-top img{max-height:30px;max-width:126px}.poster-top img.secondaryLogo{max-height:12px;max-width:135px}
        .event-name{font-size:28px;font-weight:700;line-height:1.1;text-shadow:0 1px 6px rgba(0,0,0,.5)}
        .performers{font-size:14px;text-shadow:0 1px 4px rgba(0,0,0,.5)}
        .poster-details{padding:12px 14px;display:flex;flex-direction:column;gap:10px}
        .poster-footer{background:var(--footer,var(--bg));padding:12px}
        .route{display:flex;justify-content:space-between;align-items:center}
        .airport .code{font-size:40px;font-weight:300;line-height:1}.airport .city{font-size:12px;color:var(--label)}
        .airport .time{font-size:16px;font-weight:600}.airport[data-role=destination]{text-align:right}
        .semantic-boarding .fields{flex-wrap:wrap}
        .unreadable{padding:24px;width:320px;min-height:200px;background:#fff}
        .diagnostics{margin-top:28px;max-width:900px}.diagnostics h2{font-size:15px;margin:0 0 6px}
        .diagnostics ul{margin:0;padding-left:18px}.diagnostics li{margin:4px 0;font-size:13px}
        .diagnostics .severity{font-weight:700;text-transform:uppercase;font-size:11px}
        .diagnostics li.error .severity{color:#c5221f}.diagnostics li.warning .severity{color:#a15c00}
        .diagnostics .fix{color:#3a3a3c}.diagnostics .clean{color:#1e7b34;margin:0}
        """
}

//! The HTML report's style sheet and its script (the cards' filter), inlined in the page
//! so that it stays one self-contained file.

/// The report's style: a narrow window (a phone) scrolls its tables sideways and fits
/// its diagrams to the card.
pub(super) const CSS: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;background:#faf8f4}\
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.2em}\
table{border-collapse:collapse;margin:.4em 0;font-size:.9em;display:block;overflow-x:auto;max-width:100%}th,td{border:1px solid #cbbfae;padding:.2em .5em;text-align:left}td.time{white-space:nowrap}td.loc{overflow-wrap:anywhere;max-width:28em;min-width:12em}\
th{background:#efe7da}td.error,span.error{color:#a01010}td.warning,span.warning{color:#8a5a00}tr.sum td{font-weight:bold}\
.card{background:#fff;border:1px solid #d8cfc2;border-left:6px solid #c33;border-radius:6px;padding:.6em 1em;margin:1em 0;max-width:60em}\
.card.warning{border-left-color:#d9a21b}.card h3{font-size:1em;margin:.2em 0}\
.loc{font-family:ui-monospace,monospace}.kind{background:#eee6da;border-radius:4px;padding:0 .4em}\
.sev{font-size:.85em;color:#666}.diagram{margin:.5em 0}.fen,.legal,.moves{font-size:.9em;word-break:break-word}\
.broken{color:#a01010}.filters{margin:.6em 0;padding:.4em;background:#efe7da;border-radius:4px}\
code{font-family:ui-monospace,monospace}.diagram svg{max-width:100%;height:auto}\
.card h3 .loc,.card a{overflow-wrap:anywhere}";

/// The cards' filter by severity and kind.
pub(super) const SCRIPT: &str = "<script>//<![CDATA[\n\
(function(){var form=document.getElementById('filters');if(!form){return;}\
var cards=document.querySelectorAll('section.card');var shown=document.getElementById('shown');\
function apply(){var sev={};var boxes=form.querySelectorAll('input[name=severity]');\
for(var i=0;i!==boxes.length;i++){sev[boxes[i].value]=boxes[i].checked;}\
var kind=form.elements.kind.value;var n=0;\
for(var j=0;j!==cards.length;j++){var c=cards[j];\
var on=sev[c.dataset.severity]===true;if(kind!==''){on=on?c.dataset.kind===kind:false;}\
c.style.display=on?'':'none';if(on){n++;}}\
shown.textContent=n+' shown';}\
form.addEventListener('change',apply);apply();})();\n//]]></script>";

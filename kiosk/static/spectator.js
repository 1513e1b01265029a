/* The spectator TV: read-only, draws the public state; reconnects and resyncs by itself. */
(function () {
  'use strict';
  var S = window.Stud, t = S.t, esc = S.esc;
  var tv = document.getElementById('tv');
  var $ = function (id) { return document.getElementById(id); };
  var state = null, online = false;
  /* odds: the odds of the hand on the table (kept while their key is the hand's); replay: the last
     finished hand's streets; frame: the street of it on the screen while it is replayed */
  var odds = null, replay = null, frame = null, replayTimer = null, replayed = {};
  if (localStorage.getItem('fourColour') === '1' || /four=1/.test(location.search)) document.body.classList.add('four-colour');

  var socket = S.live('spectator', tv.dataset.lang, function (st) { state = st; changed(); tv.dataset.version = st.version; }, function (on) {
    online = on; conn();
  });
  socket.on('odds', function (o) { odds = o; render(); });
  socket.on('replay', function (r) {
    /* a replay the dealer asked for from the history plays at once, between hands */
    if (r.now && !(state && state.hand && !state.hand.finished)) { stopReplay(); replay = r; playReplay(0); }
    else if (!r.now) { replay = r; startReplay(); }
  });

  /* a new state: ask for the odds and the replay the TV does not have yet */
  function changed() {
    var hand = state.hand;
    if (frame && (!hand || !hand.finished || (hand.id !== replay.hand && !replay.now))) stopReplay();
    if (hand && hand.odds_key && (!odds || odds.key !== hand.odds_key)) {
      socket.emit('odds', null, function (o) { if (o) { odds = o; render(); } });
    }
    if (hand && hand.finished && state.table.tv && state.table.tv.replays && !replayed[hand.id]) {
      if (replay && replay.hand === hand.id) startReplay();
      else socket.emit('replay', tv.dataset.lang, function (r) { if (r) { replay = r; startReplay(); } });
    }
    render();
  }
  /* After a hand with a showdown the result stays a while, then each street comes back with its
     odds, then the result again (house option: replays). A new hand stops it. */
  function startReplay() {
    var hand = state && state.hand;
    if (!replay || !hand || !hand.finished || replay.hand !== hand.id || replayed[hand.id]) return;
    replayed[hand.id] = true;
    playReplay(replay.hold);
  }
  function playReplay(hold) {
    if (!replay.streets.length) return;
    tv.dataset.replay = replay.hand;  /* the replay waiting or playing */
    var i = 0;
    function step() {
      if (i >= replay.streets.length) { stopReplay(); render(); return; }
      frame = replay.streets[i++];
      render();
      replayTimer = setTimeout(step, replay.street * 1000);
    }
    replayTimer = setTimeout(step, hold * 1000);
  }
  function stopReplay() {
    clearTimeout(replayTimer);
    replayTimer = null;
    frame = null;
  }

  function conn() {
    var c = $('tv-conn');
    c.className = 'conn' + (online ? '' : ' off');
    c.textContent = online ? '● ' + t('live.online') : '○ ' + t('live.offline');
  }

  /* The seats sit in a ring round the felt, clockwise from the dealer's left (the dealer sits at
     the top): a row across the top and one across the bottom, a column at each end. How many go
     on each side (top, right, bottom, left) is chosen for each size of table so that the middle
     of the felt stays free for the pot and, at the end of a hand, the result. */
  var SIDES = { 2: [0, 1, 0, 1], 3: [0, 1, 1, 1], 4: [2, 0, 2, 0], 5: [2, 1, 1, 1], 6: [2, 1, 2, 1],
    7: [2, 2, 1, 2], 8: [2, 2, 2, 2], 9: [2, 3, 1, 3], 10: [2, 3, 2, 3] };
  var EDGE = 20, GAP = 24;  /* px from the rail; px between two seats */
  /* games whose seats hold at most five cards get narrower seats (kiosk.css: .tv-table.five) */
  var FIVE_CARDS = { 'five-card-stud': true, soko: true };

  /* the centre of each seat's box, in seat order, for n seats of w x h px on a felt of W x H px */
  function slots(n, W, H, w, h) {
    var k = SIDES[n], out = [], i;
    if (!k) {  /* not a size of table any game is played at: an even oval */
      for (i = 0; i < n; i++) {
        var a = -Math.PI / 2 + (2 * Math.PI * (i + 0.5)) / n;
        out.push({ x: W / 2 + (W / 2 - EDGE - w / 2) * Math.cos(a), y: H / 2 + (H / 2 - EDGE - h / 2) * Math.sin(a), side: '' });
      }
      return out;
    }
    /* seats in a row sit side by side; with no column at the ends (four players) they spread out */
    var step = k[1] + k[3] ? w + GAP : Math.max(w + GAP, (W - 2 * EDGE - w) / 2);
    function row(count, y, side) {  /* left to right, centred under the dealer */
      var r = [];
      for (var j = 0; j < count; j++) r.push({ x: W / 2 + (j - (count - 1) / 2) * step, y: y, side: side });
      return r;
    }
    function column(count, x, side) {  /* top to bottom, centred on the felt */
      var c = [];
      for (var j = 0; j < count; j++) c.push({ x: x, y: H / 2 + (j - (count - 1) / 2) * (h + 2 * GAP), side: side });
      return c;
    }
    var top = row(k[0], EDGE + h / 2, 'top'), half = Math.floor(k[0] / 2);
    return top.slice(half)
      .concat(column(k[1], W - EDGE - w / 2, 'right'))
      .concat(row(k[2], H - EDGE - h / 2, 'bottom').reverse())
      .concat(column(k[3], EDGE + w / 2, 'left').reverse())
      .concat(top.slice(0, half));
  }

  function layoutSeats() {
    var table = $('tv-table'), seats = table.querySelectorAll('.tv-seat');
    if (!seats.length) return;
    var w = 0, h = 0;
    seats.forEach(function (s) { w = Math.max(w, s.offsetWidth); h = Math.max(h, s.offsetHeight); });
    var W = table.clientWidth, H = table.clientHeight, places = slots(seats.length, W, H, w, h);
    seats.forEach(function (s, i) {
      var p = places[i], own = s.offsetHeight;
      /* a row keeps to its rail whatever the height of each of its seats */
      var y = p.side === 'top' ? EDGE + own / 2 : p.side === 'bottom' ? H - EDGE - own / 2 : p.y;
      s.style.left = p.x + 'px';
      s.style.top = y + 'px';
      s.dataset.side = p.side;
    });
  }

  function seatHTML(s, hand, winners, beaten, figures) {
    var cls = 'tv-seat';
    if (hand && hand.to_act === s.seat && !hand.finished) cls += ' turn';
    if (s.folded) cls += ' folded';
    if (winners[s.seat]) cls += ' winner';
    var cards = s.cards ? s.cards.map(function (c) { return S.cardHTML(c); }).join('') : '';
    /* folded and all in are badges a player reads from across the room; a winner's share is text */
    var status = s.folded ? '<span class="badge fold" data-testid="seat-folded">' + esc(t('seat.folded')) + '</span>'
      : s.all_in ? '<span class="badge all-in" data-testid="seat-all-in">' + esc(t('seat.all_in')) + '</span>' : '';
    if (winners[s.seat]) status = esc('+' + winners[s.seat]);
    /* a hand shown that won nothing is named on its own seat */
    else if (beaten[s.seat]) status = '<span class="shown-hand" data-testid="seat-hand">' + esc(beaten[s.seat]) + '</span>';
    else if (figures && !s.folded) status += S.oddsHTML(figures);
    return '<div class="' + cls + '" data-seat="' + s.seat + '">' +
      '<div class="who"><span class="name">' + esc(s.name) + '</span>' +
      (state.table.dealer === s.seat ? '<span class="dealer-button" title="dealer">' + esc(t('seat.dealer')) + '</span>' : '') +
      '<span class="stack">' + s.stack + '</span></div>' +
      '<div class="cards">' + cards + '</div>' +
      '<div class="status">' + status + '</div>' +
      (s.bet ? '<div class="bet">' + s.bet + '</div>' : '') + '</div>';
  }

  /* hilo: a pot split in halves names both, Alto and Basso */
  function shareHTML(name, half, hand, amount, hilo) {
    return '<div class="push"><span>' + esc(name) + (hilo ? ' · ' + esc(t('result.' + half)) : '') +
      '</span><span>' + esc(hand || t('result.uncontested')) + '</span><span class="amount">' + amount + '</span></div>';
  }
  /* a hand shown that lost this pot (or a half of it): its name and why */
  function beatenHTML(b, why) {
    return '<div class="beaten" data-testid="tv-beaten"><span class="who">' + esc(t('result.beaten', { name: b.name, hand: b.hand })) +
      (b.half === 'high' ? ' · ' + esc(t('result.high')) : '') + '</span>' + (why ? '<span class="reason">' + esc(b.why) + '</span>' : '') + '</div>';
  }
  function hiloPot(pot) { return pot.shares.some(function (x) { return x.half === 'low'; }); }
  /* an uncalled bet goes back to its owner: shown, so that a winner's total adds up on screen */
  function returnedHTML(result) {
    return (result.returned || []).map(function (r) {
      return '<div class="pot push returned" data-testid="tv-returned"><span>' + esc(t('result.returned', { to: r.to, amount: r.amount })) +
        '</span><span class="amount">' + r.amount + '</span></div>';
    }).join('');
  }
  /* each pot: its winners, their hands and what each takes, and why an odd chip went where it did;
     detail: 2 the hands that lost with why, 1 their names only, 0 none (each is on its seat too) */
  function resultHTML(result, detail) {
    if (result.misdeal) return misdealHTML(result);
    var html = '';
    result.pots.forEach(function (pot) {
      html += '<div class="pot"><h2>' + esc(pot.title) + ' · ' + pot.amount + '</h2>';
      pot.shares.forEach(function (sh) { html += shareHTML(sh.name, sh.half, sh.hand, sh.amount, hiloPot(pot)); });
      if (detail) (pot.beaten || []).forEach(function (b) { html += beatenHTML(b, detail > 1); });
      if (pot.no_low) html += '<div class="why">' + esc(t('result.no_low')) + '</div>';
      pot.odd_chips.forEach(function (text) { html += '<div class="why">' + esc(text) + '</div>'; });
      html += '</div>';
    });
    return html + returnedHTML(result);
  }
  /* a misdeal is no win: the hand is void and every chip goes back */
  function misdealHTML(result) {
    return '<div class="pot misdeal" data-testid="tv-misdeal"><h2>' + esc(t('result.misdeal')) + '</h2>' +
      '<div class="why">' + esc(t('result.misdeal_back')) + '</div></div>' + returnedHTML(result);
  }
  /* when the pots one by one fit nowhere on the felt: the whole pot, and each winner's hand with
     all it takes from every pot (the dealer's screen keeps the pot by pot detail) */
  function summaryHTML(result, withBeaten) {
    var total = 0, rows = [], byKey = {}, hilo = false, lost = [], seen = {};
    result.pots.forEach(function (pot) {
      total += pot.amount;
      hilo = hilo || hiloPot(pot);
      pot.shares.forEach(function (sh) {
        var key = sh.seat + '/' + sh.half, row = byKey[key];
        if (!row) { row = byKey[key] = { name: sh.name, half: sh.half, hand: sh.hand, amount: 0 }; rows.push(row); }
        row.amount += sh.amount;
        row.hand = row.hand || sh.hand;
      });
      (withBeaten ? pot.beaten || [] : []).forEach(function (b) {
        if (!seen[b.seat + '/' + b.half]) { seen[b.seat + '/' + b.half] = true; lost.push(b); }
      });
    });
    return '<div class="pot"><h2>' + esc(t('spectator.pot')) + ' · ' + total + '</h2>' +
      rows.map(function (r) { return shareHTML(r.name, r.half, r.hand, r.amount, hilo); }).join('') +
      lost.map(function (b) { return beatenHTML(b, false); }).join('') + '</div>' +
      returnedHTML(result);
  }

  /* The result goes where no seat is: the free rectangles of felt between the seats are listed
     (each side on the rail or on the edge of a seat, a margin off every seat and bet), and the
     panel goes as near the middle of the felt as one of them lets it: pot by pot in one column;
     if that is too tall for every one, in two columns; if that fits nowhere either, in brief. */
  var MARGIN = 16;
  function freeRects(table) {
    var t = table.getBoundingClientRect(), ox = t.left + table.clientLeft, oy = t.top + table.clientTop;
    var W = table.clientWidth, H = table.clientHeight, boxes = [];
    table.querySelectorAll('.tv-seat, .tv-seat .bet').forEach(function (e) {
      var r = e.getBoundingClientRect();
      boxes.push({ l: r.left - ox - MARGIN, r: r.right - ox + MARGIN, t: r.top - oy - MARGIN, b: r.bottom - oy + MARGIN });
    });
    var x0s = [EDGE], x1s = [W - EDGE], y0s = [EDGE], y1s = [H - EDGE], out = [];
    boxes.forEach(function (b) { x0s.push(b.r); x1s.push(b.l); y0s.push(b.b); y1s.push(b.t); });
    x0s.forEach(function (x0) {
      x1s.forEach(function (x1) {
        if (x0 < EDGE || x1 > W - EDGE || x1 - x0 < 200) return;
        y0s.forEach(function (y0) {
          y1s.forEach(function (y1) {
            if (y0 < EDGE || y1 > H - EDGE || y1 - y0 < 100) return;
            var clear = boxes.every(function (b) { return b.r <= x0 || b.l >= x1 || b.b <= y0 || b.t >= y1; });
            if (clear) out.push({ x0: x0, y0: y0, x1: x1, y1: y1 });
          });
        });
      });
    });
    return out.sort(function (a, b) { return (b.x1 - b.x0) * (b.y1 - b.y0) - (a.x1 - a.x0) * (a.y1 - a.y0); });
  }
  /* the centre nearest (cx, cy) of a w x h box inside rect r, or null if it does not fit */
  function centreIn(r, w, h, cx, cy) {
    if (r.x1 - r.x0 < w || r.y1 - r.y0 < h) return null;
    var x = Math.min(Math.max(cx, r.x0 + w / 2), r.x1 - w / 2), y = Math.min(Math.max(cy, r.y0 + h / 2), r.y1 - h / 2);
    return { x: x, y: y, off: Math.abs(x - cx) + Math.abs(y - cy) };
  }
  function nearest(rects, w, h, cx, cy) {
    var best = null;
    rects.forEach(function (r) {
      var c = centreIn(r, w, h, cx, cy);
      if (c && (!best || c.off < best.off)) best = c;
    });
    return best;
  }

  var results = null;  /* the finished hand's result, from the most detailed to the briefest */
  function placeResults() {
    var panel = tv.querySelector('.tv-results'), table = $('tv-table');
    if (!panel || !results) return;
    var rects = freeRects(table), cx = table.clientWidth / 2, cy = table.clientHeight / 2;
    function fit(html, twoColumns) {
      panel.innerHTML = html;
      panel.classList.remove('two-col');
      panel.style.width = '';
      var place = nearest(rects, panel.offsetWidth, panel.offsetHeight, cx, cy);
      /* the pots in two columns, in a space wide enough for two (largest first) */
      for (var i = 0; twoColumns && !place && i < rects.length; i++) {
        var r = rects[i];
        if (r.x1 - r.x0 < 720) continue;
        panel.classList.add('two-col');
        panel.style.width = Math.min(r.x1 - r.x0, 1400) + 'px';
        place = centreIn(r, panel.offsetWidth, panel.offsetHeight, cx, cy);
      }
      if (!place) { panel.classList.remove('two-col'); panel.style.width = ''; }
      return place;
    }
    /* the most detail that fits: the hands that lost with why, then by name, then only on their
       seats; pot by pot before each winner's total */
    var place = null, brief = false;
    for (var i = 0; !place && i < results.tries.length; i++) {
      brief = results.tries[i].brief;
      place = fit(results.tries[i].html, !brief);
    }
    panel.classList.toggle('brief', brief);
    place = place || { x: cx, y: cy };  /* nothing fits anywhere: in the middle */
    panel.style.left = place.x + 'px';
    panel.style.top = place.y + 'px';
  }

  function layout() { layoutSeats(); placeResults(); }

  /* The game now and, in a rotation, the next one; in a dealer's choice, who chooses. While a
     hand runs its own game is the game now (the table's may already be the next hand's). */
  function renderGame(hand, table) {
    var rot = table.rotation || {}, running = hand && !hand.finished;
    $('tv-game').textContent = running ? t('game.' + hand.variant) : table.game_name;
    var next = '';
    if (rot.mode === 'list' && rot.next_text) {
      next = running && hand.variant !== rot.game ? t('rotation.now') + ': ' + rot.game_name : rot.next_text;
    } else if (rot.mode === 'choice' && !running && rot.chooser_text) next = rot.chooser_text;
    $('tv-next').textContent = next;
  }
  /* the night so far, when the dealer shows it, and how it ends (who pays whom) */
  function renderNight() {
    var box = $('tv-night'), n = state.night;
    var show = n && (state.table.show_night || n.settlement);
    box.hidden = !show;
    if (!show) { box.innerHTML = ''; return; }
    var html = '<h2>' + esc(t('tv.night')) + ' · ' + esc(n.rate_text) + '</h2><table class="standings"><thead><tr><th>' +
      esc(t('night.player')) + '</th><th>' + esc(t('night.money_in')) + '</th><th>' + esc(t('night.chips_now')) + '</th><th>' +
      esc(t('night.result')) + '</th></tr></thead><tbody>' + n.rows.map(function (r) {
        return '<tr' + (r.left ? ' class="left"' : '') + '><td>' + esc(r.name) + '</td><td>' + esc(r.money_in) + '</td><td>' +
          r.chips_now + '</td><td class="' + (r.result_cents > 0 ? 'gain' : r.result_cents < 0 ? 'loss' : '') + '">' + esc(r.result) + '</td></tr>';
      }).join('') + '</tbody></table>';
    if (n.difference_text) html += '<p class="loss">' + esc(t('night.difference', { text: n.difference_text })) + '</p>';
    if (n.settlement) {
      html += '<h2>' + esc(t('night.settlement')) + '</h2><ul class="settlement">' + n.settlement.transfers.map(function (x) {
        return '<li><span>' + esc(t('night.pays', { payer: x.from, payee: x.to })) + '</span><span class="amount">' + esc(x.amount) + '</span></li>';
      }).join('') + '</ul>';
    }
    box.innerHTML = html;
  }

  function render() {
    if (!state) return;
    var table = state.table, hand = frame ? frame.hand : state.hand;
    /* the odds shown: a replayed street's, or the live hand's while they are of its cards */
    var shown = frame ? frame.odds : odds && hand && odds.key === hand.odds_key ? odds : null;
    renderGame(hand, table);
    renderNight();
    $('tv-stakes').textContent = table.stakes_text;
    $('tv-street').textContent = !hand ? '' : frame ? t('replay.title', { number: replay.number }) + ' · ' + hand.street_text
      : t('dealer.hand', { number: hand.number }) + (hand.finished ? '' : ' · ' + hand.street_text);
    $('tv-odds').textContent = S.oddsHow(shown);
    tv.classList.toggle('replaying', !!frame);
    var seats = hand ? hand.seats : table.seats, html = '', winners = {}, beaten = {};
    if (hand && hand.finished && hand.result && !hand.result.misdeal) {
      hand.result.payouts.forEach(function (p) { winners[p.seat] = p.amount; });
      hand.result.pots.forEach(function (pot) {
        (pot.beaten || []).forEach(function (b) { if (b.half !== 'low' && !beaten[b.seat]) beaten[b.seat] = b.hand; });
      });
    }
    seats.forEach(function (s) { html += seatHTML(s, hand, winners, beaten, shown && shown.seats[s.seat]); });
    if (hand) {
      html += '<div class="tv-center"><div class="pot-label">' + esc(t('spectator.pot')) + '</div>' +
        '<div class="pot-total" data-testid="tv-pot">' + hand.total_pot + '</div>';
      if (hand.pots.length > 1) {
        html += '<div class="side-pots">' + hand.pots.map(function (p, i) {
          /* a long line of pots wraps between pots, never inside one */
          return '<span class="one-pot">' + esc(i === 0 ? t('spectator.main_pot') : t('spectator.side_pot', { n: i })) + ': ' + p.amount + '</span>';
        }).join(' · ') + '</div>';
      }
      if (hand.community && hand.community.length) {
        html += '<div class="community cards">' + hand.community.map(function (c) { return S.cardHTML({ card: c }); }).join('') + '</div>';
      }
      html += '</div>';
      results = hand.finished && hand.result ? { tries: [
        { html: resultHTML(hand.result, 2) }, { html: resultHTML(hand.result, 1) }, { html: resultHTML(hand.result, 0) },
        { html: summaryHTML(hand.result, true), brief: true }, { html: summaryHTML(hand.result, false), brief: true }
      ] } : null;
      if (results) html += '<div class="tv-results" data-testid="tv-results"></div>';
    } else {
      results = null;
      html += '<div class="tv-waiting">' + esc(t('spectator.waiting')) + '</div>';
    }
    $('tv-table').innerHTML = html;
    $('tv-table').classList.toggle('has-results', !!(hand && hand.finished && hand.result));
    $('tv-table').classList.toggle('five', !!FIVE_CARDS[table.game]);
    layout();
    var turn = '';
    if (hand && !hand.finished && hand.to_act) {
      hand.seats.forEach(function (s) { if (s.seat === hand.to_act) turn = t('spectator.turn') + ': ' + s.name; });
    } else if (hand && !hand.finished && hand.prompt.kind === 'show' && hand.prompt.seats.length) {
      hand.seats.forEach(function (s) {
        if (s.seat === hand.prompt.seats[0]) turn = t('spectator.ranking') + ': ' + t('spectator.shows', { name: s.name });
      });
    }
    $('tv-turn').textContent = frame ? '' : turn;
    $('tv-last').textContent = frame ? frame.actions.join(' · ') : hand && hand.last_action && !hand.finished ? hand.last_action.text : '';
  }
  window.addEventListener('resize', layout);
  conn();
})();

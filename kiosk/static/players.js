/* The player list: rename a player, merge a duplicate into the player they are, or separate them
   again (JSON routes; the page reloads with the list as stored). */
(function () {
  'use strict';
  var S = window.Stud, t = S.t, esc = S.esc, F = window.StudFeedback;
  var csrf = document.querySelector('meta[name="csrf-token"]').content;
  var sheet = document.getElementById('sheet'), body = document.getElementById('sheet-body');
  var list = JSON.parse(document.getElementById('player-list').textContent);

  function post(url, data) {
    return fetch(url, { method: 'POST', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRFToken': csrf }, body: JSON.stringify(data) })
      .then(function (r) { return r.json(); })
      .then(function (a) { if (a.ok) location.reload(); else F.say(a.error, 'error'); });
  }
  function open(html) {
    body.innerHTML = html + '<div class="sheet-actions"><button type="button" class="btn btn-ghost" data-close>' + esc(t('night.cancel')) + '</button></div>';
    sheet.show();
    document.body.classList.add('sheet-open');
    body.querySelector('[data-close]').addEventListener('click', close);
  }
  function close() { sheet.close(); document.body.classList.remove('sheet-open'); if (window.StudKeys) window.StudKeys.close(); }
  function input(id, label, value) {
    return '<label>' + esc(label) + '<input type="text" inputmode="none" autocomplete="off" data-keys="text" id="' + id +
      '" value="' + esc(value) + '"></label>';
  }
  document.addEventListener('click', function (ev) {
    var b = ev.target.closest('[data-rename], [data-merge], [data-separate]');
    if (!b) return;
    if (b.dataset.rename) {
      open('<h2>' + esc(t('players.rename')) + '</h2><div class="sheet-row">' + input('p-name', t('night.name'), b.dataset.name) +
        input('p-nick', t('night.nickname'), b.dataset.nickname) + '<button type="button" class="btn btn-primary" id="p-save">' +
        esc(t('players.save')) + '</button></div>');
      document.getElementById('p-save').addEventListener('click', function () {
        post('/api/players/' + b.dataset.rename, { name: document.getElementById('p-name').value,
          nickname: document.getElementById('p-nick').value });
      });
    } else if (b.dataset.merge) {
      open('<h2>' + esc(t('players.merge_pick', { name: b.dataset.name })) + '</h2><div class="pick-grid">' +
        list.filter(function (p) { return !p.merged_into && String(p.player) !== b.dataset.merge; }).map(function (p) {
          return '<button type="button" class="btn" data-into="' + p.player + '">' + esc(p.name) + '</button>';
        }).join('') + '</div>');
      body.querySelectorAll('[data-into]').forEach(function (x) {
        x.addEventListener('click', function () { post('/api/players/' + b.dataset.merge + '/merge', { into: +x.dataset.into }); });
      });
    } else {
      post('/api/players/' + b.dataset.separate + '/merge', { into: null });
    }
  });
})();

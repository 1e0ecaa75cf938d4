//! Changes (`hkk._changes`): the only code that mutates a game's state; each change logs its
//! event. Here: playing a card (a spell's implemented effects resolve), entering play, damage,
//! restoring, destroying, extracting components.

use crate::cards::CardId;
use crate::emit;
use crate::errors::{Flow, Halt};
use crate::events::{Kind, Prefix, Text};
use crate::game::Game;
use crate::state::{ExtractionOffer, Fact, Permanent, Zone};

/// `play_card` (8.1): pay, log, and the card enters play. A card with a word of the card
/// language is where the native core stops, naming it.
pub fn play_card(game: &mut Game, player: usize, card_id: CardId) -> Flow {
    let Some(card) = game.cards.get(card_id) else {
        return Err(Halt::Unported(format!(
            "card {}: not among the engine's cards",
            game.cards.name(card_id)
        )));
    };
    if let Some(reason) = &card.refused {
        return Err(Halt::Unported(reason.clone()));
    }
    let (vp, components, spell) = (card.cost_vp, card.cost_components, card.kind == "spell");
    let p = &mut game.players[player];
    if let Some(at) = p.hand.iter().position(|&c| c == card_id) {
        p.hand.remove(at);
    }
    p.vp -= vp;
    p.components -= components;
    emit!(
        game,
        Kind::CardPlayed {
            player,
            card: card_id,
            vp,
            components,
        }
    );
    if spell {
        // a spell's effects are read while it resolves: the cards borrowed beside the game
        // (a permanent's play reads what it needs above, without counting the pool's owners)
        let cards = game.cards.clone();
        let effects = cards.get(card_id).map_or(&[][..], |c| c.effects.as_slice());
        let flow = crate::effects::resolve_spell(game, player, card_id, effects);
        // even when its effect ends the game: no card leaves every zone; but not while it
        // waits for a decision from outside (its target): the game stands mid-spell there,
        // as the Python engine's does, and what a seat sees of it is read (`env`)
        if !matches!(flow, Err(Halt::Decision)) {
            game.players[player].graveyard.push(card_id);
        }
        return flow;
    }
    let uid = enter_play(game, player, card_id);
    crate::steps::run_entry_triggers(game, uid, player)
}

/// `enter_play`: a creature to the reserve, a building to the buildings, passive.
pub fn enter_play(game: &mut Game, player: usize, card_id: CardId) -> u32 {
    let Some(card) = game.cards.get(card_id) else {
        return 0;
    };
    let creature = card.kind == "creature";
    let zone = if creature {
        Zone::Reserve
    } else {
        Zone::Buildings
    };
    let uid = game.next_uid;
    let perm = Permanent {
        uid,
        card: card_id,
        creature,
        owner: player,
        controller: player,
        zone,
        active: false,
        damage_taken: 0,
        defence_bonus: 0,
        counters: Vec::new(),
        mod_damage: 0,
        mod_hp: 0,
        mod_sp: 0,
        base_damage: card.damage,
        base_hp: card.hp,
        components: if creature { card.components } else { 0 },
        damaged_turn: 0,
        has_abilities: !card.abilities.is_empty(),
        has_statics: card.has_statics,
        static_uses: card.static_uses,
        hooks: card.hooks,
        triggers: card.triggers,
    };
    game.next_uid += 1;
    game.enter_play(perm);
    emit!(
        game,
        Kind::EnteredPlay {
            controller: player,
            card: card_id,
            uid,
            zone: zone.name(),
            active: false,
        }
    );
    uid
}

/// The card id of a permanent in play, for an event (events are built only when read).
fn card_of(game: &Game, uid: u32) -> CardId {
    game.permanent(uid).map_or(CardId::NONE, |p| p.card)
}

/// What a damage hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Player(usize),
    Permanent(u32),
}

/// `damage`: nothing for 0 or less; a player's Ép falls; a permanent in play takes it.
pub fn damage(game: &mut Game, target: Target, amount: i64, source: Text, source_uid: Option<u32>) {
    if amount <= 0 {
        return;
    }
    let turn = game.turn;
    match target {
        Target::Player(index) => {
            let p = &mut game.players[index];
            p.hp -= amount;
            let after = p.hp;
            emit!(
                game,
                Kind::PlayerDamaged {
                    player: index,
                    amount,
                    source,
                    source_uid,
                    after,
                }
            );
        }
        Target::Permanent(uid) => {
            let Some(perm) = game.permanent_mut(uid) else {
                return;
            };
            perm.damage_taken += amount;
            perm.damaged_turn = turn;
            game.hp_changed(uid);
            // its killer if it dies of it (D-trigger-killer), read only by a "dies" ability
            // aimed at it
            if game.watch.keeps_killers() {
                game.watch.last_hit.insert(uid, (source_uid, turn));
            }
            emit!(
                game,
                Kind::Damaged {
                    uid,
                    card: card_of(game, uid),
                    amount,
                    source,
                    source_uid,
                    // read only for a log that keeps it (the watch and an outcome recorder
                    // read the uid, amount and source): its statics not walked for nothing
                    after: if game.log.builds(false) {
                        game.hp(uid)
                    } else {
                        0
                    },
                }
            );
        }
    }
}

/// `give_defence_bonus`: it adds up.
pub fn give_defence_bonus(game: &mut Game, uid: u32, amount: i64, source: &Text) {
    let Some(at) = game.place(uid) else {
        return;
    };
    let perm = &mut game.permanents[at];
    perm.defence_bonus += amount;
    let has = perm.defence_bonus != 0;
    game.in_play.set(Fact::DefenceBonus, at, has);
    if amount < 0 {
        game.hp_changed(uid);
    }
    emit!(
        game,
        Kind::DefenceBonusGained {
            uid,
            card: card_of(game, uid),
            amount,
            source: *source,
        }
    );
}

/// `remove_defence_bonus`: the whole bonus is lost; inside a moment, after every gain of the
/// moment (`Game::end_moment`).
pub fn remove_defence_bonus(
    game: &mut Game,
    uid: u32,
    rule: Option<&'static str>,
    source: Option<Text>,
) {
    if game.in_moment {
        game.bonus_losses.push((uid, rule, source));
        return;
    }
    let Some(at) = game.place(uid) else {
        return;
    };
    let perm = &mut game.permanents[at];
    if perm.defence_bonus != 0 {
        let amount = std::mem::take(&mut perm.defence_bonus);
        game.in_play.set(Fact::DefenceBonus, at, false);
        game.hp_changed(uid);
        emit!(
            game,
            Kind::DefenceBonusLost {
                uid,
                card: card_of(game, uid),
                amount,
                rule,
                source,
            }
        );
    }
}

/// `restore` (41.3): back to max Ép / Sp.
pub fn restore(game: &mut Game, uid: u32, rule: &'static str) {
    let Some(perm) = game.permanent_mut(uid) else {
        return;
    };
    if perm.damage_taken != 0 {
        let healed = perm.damage_taken > 0;
        perm.damage_taken = 0;
        if !healed {
            game.hp_changed(uid);
        }
        emit!(
            game,
            Kind::Restored {
                uid,
                card: card_of(game, uid),
                after: game.hp(uid),
                rule,
            }
        );
    }
}

/// `destroy`: to its owner's graveyard; a creature offers its components to its opponent
/// until the end of the phase (`hkk.rules.components`), unless `components` is false or the
/// step gives none (29.4.11).
pub fn destroy(
    game: &mut Game,
    uid: u32,
    cause: &'static str,
    rule: Option<&'static str>,
    components: bool,
) {
    if game.in_moment {
        // 29.4.2, 41.4: it leaves play when the moment ends (`Game::end_moment`)
        if game.permanent(uid).is_some() {
            game.leaving_play.push((uid, cause, rule, components));
        }
        return;
    }
    let Some(at) = game.place(uid) else {
        return;
    };
    let perm = game.leave_play(at);
    game.players[perm.owner].graveyard.push(perm.card);
    let step = game.step.map(|i| &crate::phases::DEFAULT_TURN[i]);
    let offered = if perm.creature
        && perm.components != 0
        && components
        && !step.is_some_and(|s| s.no_components)
    {
        let phase = step.map_or(crate::phases::DEFAULT_TURN[0].phase, |s| s.phase);
        game.offers.push(ExtractionOffer {
            card: perm.card,
            uid,
            count: perm.components,
            player: 1 - perm.controller,
            phase,
        });
        perm.components
    } else {
        0
    };
    // a death no "dies" ability can see (neither the dead's nor one in play or gone with it)
    // is not looked at
    emit!(
        game,
        looked game.watch.looks_at_death(perm.triggers),
        Kind::Died {
            creature: perm.creature,
            card: perm.card,
            uid,
            controller: perm.controller,
            cause,
            rule,
            components_offered: offered,
        }
    );
}

/// `gain_components`.
pub fn gain_components(game: &mut Game, player: usize, amount: i64, source: Text) {
    game.players[player].components += amount;
    emit!(
        game,
        Kind::ComponentsGained {
            player,
            amount,
            source,
        }
    );
}

/// `extract_components`: the offer's player takes them.
pub fn extract_components(game: &mut Game, index: usize) {
    let offer = game.offers.remove(index);
    gain_components(
        game,
        offer.player,
        offer.count,
        game.text(false, || Text::Card {
            prefix: Prefix::None,
            card: offer.card,
            uid: offer.uid,
        }),
    );
    emit!(
        game,
        Kind::ComponentsExtracted {
            player: offer.player,
            card: offer.card,
            uid: offer.uid,
            amount: offer.count,
        }
    );
}

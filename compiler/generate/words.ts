/**
 * Word lists the names are built from. Invented in the style of each game (nothing copied from the
 * reference data), with a sprinkling of diacritics ("Séance", "Lórien", "Pokémon", "Zoë") so that
 * search's diacritic folding always has something to fold.
 */

export const FANTASY_ADJECTIVES = [
  'Ancient', 'Ashen', 'Blazing', 'Bloodthirsty', 'Boundless', 'Brazen', 'Celestial', 'Cinder', 'Cryptic', 'Dauntless',
  'Defiant', 'Dire', 'Dread', 'Ember', 'Eternal', 'Fabled', 'Feral', 'Fervent', 'Gilded', 'Gloom', 'Grim', 'Hallowed',
  'Hollow', 'Iron', 'Ivory', 'Keen', 'Lingering', 'Lunar', 'Mire', 'Molten', 'Mystic', 'Nimble', 'Noble', 'Obsidian',
  'Primal', 'Radiant', 'Restless', 'Runic', 'Savage', 'Scarlet', 'Serene', 'Shrouded', 'Silent', 'Silver', 'Solemn',
  'Spectral', 'Storm', 'Sunlit', 'Tidal', 'Timeless', 'Verdant', 'Vengeful', 'Wandering', 'Wild', 'Withered', 'Éthéré',
];

export const FANTASY_CREATURES = [
  'Angel', 'Archon', 'Basilisk', 'Behemoth', 'Chimera', 'Colossus', 'Djinn', 'Dragon', 'Drake', 'Dryad', 'Elemental',
  'Gargoyle', 'Giant', 'Golem', 'Griffin', 'Harpy', 'Hydra', 'Kraken', 'Leviathan', 'Lich', 'Manticore', 'Minotaur',
  'Naga', 'Oracle', 'Phoenix', 'Satyr', 'Seraph', 'Shade', 'Sphinx', 'Treefolk', 'Troll', 'Wraith', 'Wurm', 'Wyvern',
  'Knight', 'Paladin', 'Shaman', 'Druid', 'Sorcerer', 'Warden', 'Ranger', 'Berserker', 'Archmage', 'Cleric', 'Rogue',
];

export const FANTASY_THINGS = [
  'Aegis', 'Anthem', 'Bargain', 'Bond', 'Blessing', 'Cascade', 'Charm', 'Citadel', 'Command', 'Covenant', 'Crown',
  'Decree', 'Descent', 'Echo', 'Edict', 'Embrace', 'Ember', 'Fury', 'Gambit', 'Grasp', 'Growth', 'Harvest', 'Hymn',
  'Insight', 'Lantern', 'Lotus', 'Mantle', 'Oath', 'Omen', 'Pact', 'Rebuke', 'Reckoning', 'Relic', 'Ritual', 'Sanctum',
  'Scroll', 'Séance', 'Sigil', 'Spire', 'Strike', 'Tempest', 'Throne', 'Tithe', 'Tome', 'Verdict', 'Vow', 'Ward',
  'Whisper', 'Wrath', 'Æther Vial',
];

export const FANTASY_PLACES = [
  'Aldmere', 'Ashvale', 'Brightmoor', 'Calderon', 'Dúnmarch', 'Duskhollow', 'Eldergrove', 'Emberfall', 'Frostmere',
  'Gloamwood', 'Halvard', 'Ironreach', 'Kaldra', 'Lórien Vale', 'Marrowdeep', 'Mistral', 'Nyxhaven', 'Oakenshire',
  'Pyrelight', 'Quillmoor', 'Ravenspire', 'Saltmarsh', 'Selvara', 'Stormhold', 'Sunhaven', 'Thornwall', 'Umbral Reach',
  'Valdris', 'Wyrmrest', 'Zephyria', 'Kôr Sanctum', 'Élanvale',
];

export const HERO_NAMES = [
  'Aeris', 'Alaric', 'Anwen', 'Bryn', 'Cassia', 'Dain', 'Elspa', 'Eowyn', 'Fenric', 'Galen', 'Hesper', 'Ilsa', 'Jorah',
  'Kaelen', 'Liora', 'Maeve', 'Niamh', 'Orrin', 'Perrin', 'Quen', 'Rhiannon', 'Séverin', 'Tamsin', 'Ulric', 'Vesna',
  'Wren', 'Xandra', 'Yorick', 'Zoë', 'Aurélie', 'Björn', 'Mírë',
];

export const HERO_TITLES = [
  'the Unbroken', 'the Lorekeeper', 'Storm Herald', 'Voice of the Deep', 'the Wanderer', 'Ashen Regent', 'the Undying',
  'Guardian of the Vale', 'Master of Ruins', 'the Mind Sculptor', 'Dawnbringer', 'Veiled Oracle', 'Twice-Born',
  'Keeper of Keys', 'the Devourer', 'Warden of Lórien', 'the Tideshaper',
];

export const SPELL_VERBS = [
  'Banish', 'Counter', 'Consume', 'Divine', 'Dispel', 'Evoke', 'Exhume', 'Forge', 'Hasten', 'Invoke', 'Mend', 'Quell',
  'Rally', 'Reclaim', 'Sever', 'Shatter', 'Smother', 'Summon', 'Unearth', 'Unmake',
];

export const BASIC_LANDS = ['Plains', 'Island', 'Swamp', 'Mountain', 'Forest'] as const;

export const SET_WORDS_A = [
  'Shadows', 'Echoes', 'Return', 'Rise', 'Throne', 'Dawn', 'War', 'Legends', 'Secrets', 'Chronicles', 'Wilds', 'Ruins',
  'Theros', 'Tides', 'Crown', 'Fall', 'Oath', 'Storm', 'Lost Caverns', 'Spirits',
];

/** Pokémon-like species names: a head and a tail glued together ("Flamander"). */
export const SPECIES_HEADS = [
  'Flam', 'Aqua', 'Volt', 'Terra', 'Zephy', 'Glaci', 'Pyro', 'Sprou', 'Bram', 'Luma', 'Nocti', 'Gloo', 'Spar', 'Drago',
  'Pebb', 'Mossy', 'Fawn', 'Owl', 'Snork', 'Quill', 'Bubb', 'Cinde', 'Frost', 'Thund', 'Petal', 'Shad', 'Mystr', 'Ferro',
  'Koal', 'Rumbl', 'Whisk', 'Flabé', 'Pidg', 'Cresc',
];
export const SPECIES_TAILS = [
  'ander', 'ling', 'puff', 'zard', 'tail', 'chu', 'mon', 'dillo', 'wing', 'fang', 'paw', 'bat', 'lisk', 'oth', 'rex',
  'ora', 'eon', 'bun', 'fox', 'nite', 'bé', 'gon', 'crab', 'saur', 'ish',
];

export const POKEMON_TYPES = ['Grass', 'Fire', 'Water', 'Lightning', 'Psychic', 'Fighting', 'Darkness', 'Metal'];

export const TRAINER_CARDS = [
  "Professor's Research", 'Pokémon Catcher', 'Pokémon Center Lady', 'Nest Ball', 'Ultra Ball', 'Great Ball', 'Rare Candy',
  "Boss's Orders", 'Switch', 'Super Rod', 'Energy Retrieval', 'Potion', 'Lost Vacuum', 'Pokégear 3.0', 'Town Map',
  "Trainer's Mail", 'Night Stretcher', 'Earthen Vessel', 'Pal Pad', 'Poké Ball', 'Counter Catcher', 'Iono',
  "Team Rocket's Hideout", 'Route 29 Gym Leader',
];

export const POKEMON_SET_ADJECTIVES = [
  'Obsidian', 'Surging', 'Paradox', 'Temporal', 'Twilight', 'Stellar', 'Shrouded', 'Brilliant', 'Evolving', 'Fusion',
  'Astral', 'Lost', 'Silver', 'Crimson', 'Phantom', 'Primal', 'Ancient', 'Cosmic', 'Burning', 'Hidden', 'Unified',
  'Dragon', 'Celestial', 'Rebel', 'Steam',
];
export const POKEMON_SET_NOUNS = [
  'Flames', 'Sparks', 'Rift', 'Forces', 'Masquerade', 'Crown', 'Fable', 'Skies', 'Strike', 'Origin', 'Tempest', 'Storm',
  'Guardians', 'Fates', 'Minds', 'Eclipse', 'Clash', 'Legends', 'Siege', 'Heroes', 'Flare', 'Rivals', 'Destiny',
];

export const LORCANA_CHARACTERS = [
  'Mirabel Reyes', 'Captain Hookfin', 'Princess Aurelle', 'Maximilien', 'Sir Barnaby', 'The Lantern Fairy', 'Old Gus',
  'Lady Marisol', 'Pip the Brave', 'Queen Isolde', 'Tobias Wick', 'Ondine', 'Brother Finch', 'Madame Lumière',
  'Zéphyrine', 'Grimsby Toad', 'King Aldous', 'Little Juniper', 'Hector the Hound', 'Nanook', 'Professor Quibble',
  'Esmé Thorn', 'Rafiq', 'Dolores the Dragon', 'Kit Cloudjumper', 'Auntie Bramble', 'Prince Rowan', 'Señor Gato',
];
export const LORCANA_VERSIONS = [
  'Brave Little Tailor', 'Wayward Dreamer', 'Keeper of Secrets', 'Storm Chaser', 'Rightful Heir', 'Sea Witch',
  'Mischief Maker', 'Inkwell Sorcerer', 'Protector of the Realm', 'Reluctant Hero', 'Treasure Hunter', 'Night Owl',
  'Royal Guard', 'Clever Trickster', 'Wish Granter', 'Lost in the Woods', 'Ballroom Sensation', 'Deep Diver',
  'Friend of the Forest', 'Fearless Explorer', 'Star of the Show', 'Ink Alchemist', 'Élégante',
];
export const LORCANA_SONGS = [
  'A Song of the Sea', 'Under the Lantern Light', 'Dance of the Inkwell', 'One Last Wish', 'The Glimmer Waltz',
  'Friends Forever', 'Into the Unknown Tide', 'Let the Storm Rage', 'Café Serenade', 'Lullaby of the Deep',
];
export const LORCANA_SET_NAMES = [
  'The First Chapter', 'Rise of the Floodborn', 'Into the Inklands', 'Return of the Tide', 'Shimmering Skies',
  'Azure Depths', 'Island of Lanterns', 'Reign of the Sorcerer', 'Fabled Pages', 'Whispers in the Well',
  'Winterspell', 'Archipelago of Dreams', 'Glimmering Crown', 'The Inkwell Saga',
];

export const PIRATE_GIVEN = [
  'Rook', 'Kaito', 'Nami-Sol', 'Jinbo', 'Usagi', 'Brook-Lee', 'Tashi', 'Marco', 'Kiku', 'Yamato', 'Rei', 'Shanko',
  'Ivo', 'Bonnie', 'Doran', 'Perona', 'Koby', 'Hiyori', 'Sabo-Ren', 'Vista', 'Nefer', 'Otama',
];
export const PIRATE_FAMILY = [
  'D. Storm', 'Blackwater', 'Redtide', 'Ironjaw', 'Saltbeard', 'Goldtooth', 'Kurogane', 'Shirayuki', 'Akagami',
  'Windmill', 'Seaborn', 'Thunderclap', 'Kōzuki', 'Drakemoor',
];
export const PIRATE_EPITHETS = [
  'the Sea King', 'Fire Fist', 'the Straw Captain', 'Pirate Hunter', 'of the Red Fleet', 'the Navigator', 'Iron Knuckle',
  'the Warlord', 'Sky Rider', 'the Revolutionary',
];
export const PIRATE_ATTACKS = ['Gum-Gum', 'Flame', 'Thunder', 'Demon', 'Tempest', 'Kraken', 'Dragon', 'Cannon', 'Storm'];
export const PIRATE_MOVES = ['Pistol', 'Barrage', 'Slash', 'Cannon', 'Typhoon', 'Rocket', 'Gatling', 'Whirlwind'];
export const ONEPIECE_SET_NAMES = [
  'Romance Dawn', 'Paramount War', 'Pillars of Strength', 'Kingdoms of Intrigue', 'Awakening of the New Era',
  'Wings of the Captain', '500 Years in the Future', 'Two Legends', 'Emperors in the New World', 'Royal Blood',
  'A Fist of Divine Speed', 'Legacy of the Master', 'Carrying On His Will', 'The Azure Sea’s Seven',
];
export const ONEPIECE_DECK_NAMES = [
  'Straw Hat Crew', 'Worst Generation', 'Seven Warlords', 'Animal Kingdom', 'Navy', 'Big Mom Pirates', 'Zoro & Sanji',
  'Revolutionary Army', 'Side Uta', 'Land of Wano',
];

/** People: artists, users. A few names carry diacritics on purpose. */
export const FIRST_NAMES = [
  'Anna', 'Ben', 'Chloé', 'Daniel', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kai', 'Lena', 'Mateo', 'Nora',
  'Omar', 'Priya', 'Quentin', 'Rosa', 'Sven', 'Tomás', 'Uma', 'Viktor', 'Wei', 'Ximena', 'Yusuf', 'Zoë', 'Hervé',
  'Søren', 'José', 'Łukasz', 'Ólafur', 'Amélie', 'Bianca', 'Carlos', 'Dana', 'Emil', 'Freya', 'Gabriel', 'Hana', 'Ivan',
  'Jasmine', 'Kenji', 'Laura', 'Mika', 'Nadia', 'Oscar', 'Paula', 'Rafael', 'Sakura', 'Theo', 'Valentina', 'William',
  'Yara', 'Aiden', 'Beatriz', 'Colin', 'Dmitri', 'Esther', 'Felix', 'Gwen', 'Hugo', 'Isla', 'Jae', 'Kamala', 'Lars',
  'Marta', 'Niko', 'Olga', 'Pedro', 'Rina', 'Selin', 'Tariq', 'Ulla', 'Vera', 'Wren', 'Yuki', 'Zane', 'Ayşe', 'Renée',
];
export const LAST_NAMES = [
  'Abe', 'Berg', 'Castillo', 'Dumont', 'Eriksen', 'Fischer', 'García', 'Hoffmann', 'Ivanova', 'Jensen', 'Kowalski',
  'Lindqvist', 'Moreau', 'Nakamura', 'Okafor', 'Petrov', 'Quinn', 'Rossi', 'Schmidt', 'Tanaka', 'Ueda', 'Varga',
  'Wagner', 'Xu', 'Yilmaz', 'Zieliński', 'Núñez', 'Øvergaard', 'Brontë', 'Ashford', 'Bell', 'Chen', 'Delacroix',
  'Evans', 'Ferreira', 'Grant', 'Haddad', 'Ito', 'Johansson', 'Kim', 'Lopez', 'Mendes', 'Novak', "O'Brien", 'Park',
  'Reyes', 'Sato', 'Torres', 'Ulrich', 'Volkov', 'Walsh', 'Young', 'Zhang', 'Alvarez', 'Brooks', 'Cruz', 'Dubois',
  'Eze', 'Fontaine', 'Gupta', 'Hughes', 'Iqbal', 'Kruger', 'Lemaire', 'Morales', 'Nguyen', 'Olsen', 'Pérez', 'Romero',
];

export const HANDLE_WORDS_A = [
  'mossy', 'lucky', 'shiny', 'foil', 'mint', 'rare', 'golden', 'dusty', 'midnight', 'crimson', 'quiet', 'swift', 'tiny',
  'cosmic', 'retro', 'sleepy', 'brave', 'pixel', 'vintage', 'holo',
];
export const HANDLE_WORDS_B = [
  'lotus', 'dragon', 'binder', 'collector', 'pirate', 'otter', 'sleeve', 'booster', 'fox', 'wizard', 'trader', 'deck',
  'mage', 'captain', 'owl', 'pack', 'vault', 'tiger', 'raven', 'sprite',
];

export const BINDER_NAMES = [
  'Trade binder', 'Mythic chase', 'For sale', 'Childhood favorites', 'Full-art collection', 'Wishlist',
  "Grandpa's Pokémon", 'Lórien collection', 'Foils only', 'Vintage', 'Commander staples', 'Pulls of the year',
  'Enchanted hunt', 'Leaders', 'Blind box finds', 'Alt arts', 'Graded slabs', 'Set completion', 'Duplicates',
  'Café trades', 'Secret rares',
];

export const FIGURE_FRANCHISES = [
  'Mythic Beasts', 'Forest Friends', 'Star Voyagers', 'Kaiju Kingdom', 'Sweet Treats', 'Pixel Heroes', 'Ocean Tales',
  'Lunar Cats', 'Robo Garden', 'Dream Bakery', 'Haunted Manor', 'Café Critters', 'Skyship Crew', 'Tiny Titans',
];
export const FIGURE_SUBJECTS = [
  'Fox', 'Owl', 'Bunny', 'Dragon', 'Cat', 'Robot', 'Ghost', 'Whale', 'Panda', 'Unicorn', 'Astronaut', 'Knight', 'Chef',
  'Octopus', 'Bear', 'Penguin', 'Wizard', 'Mermaid', 'Golem', 'Raccoon', 'Hedgehog', 'Otter', 'Phoenix', 'Yeti',
];
export const FIGURE_VARIANTS = [
  'Sleepy', 'Stargazer', 'Midnight', 'Sakura', 'Snowy', 'Golden', 'Crystal', 'Autumn', 'Retro', 'Neon', 'Crème',
  'Moonlit', 'Stormy', 'Cheerful',
];
export const MANUFACTURERS = ['Pop Mart', 'Tokidoki', 'Kidrobot', 'Funko', 'Good Smile', 'Bandai', 'Sonny Angel', 'Tomy'];

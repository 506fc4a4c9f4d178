import { formatDate } from '../../../lib/dates.js';

/**
 * The letter wizard's fixed table (owner-core spec, sections 3 and 4 "Letter wizard"): one letter for
 * each emotion and purpose, and a generic fallback. There is no AI call: "Write with AI Assistant"
 * picks from this table, and the parent edits the draft into their own words.
 */
export const LETTER_EMOTIONS = ['love', 'sad', 'frustrated', 'grateful', 'unsure'] as const;
export const LETTER_PURPOSES = ['apology', 'encouragement', 'memory', 'advice', 'care'] as const;

export type LetterEmotion = (typeof LETTER_EMOTIONS)[number];
export type LetterPurpose = (typeof LETTER_PURPOSES)[number];

export const EMOTION_LABELS: Record<LetterEmotion, { label: string; hint: string }> = {
  love: { label: 'Love', hint: 'Full of love for them' },
  sad: { label: 'Sad', hint: 'Missing them, or hurting' },
  frustrated: { label: 'Frustrated', hint: 'Things feel stuck or unfair' },
  grateful: { label: 'Grateful', hint: 'Thankful they are in your life' },
  unsure: { label: 'Unsure', hint: 'Not sure how to say it' },
};

export const PURPOSE_LABELS: Record<LetterPurpose, { label: string; hint: string }> = {
  apology: { label: 'Apology', hint: 'Say sorry' },
  encouragement: { label: 'Encouragement', hint: 'Lift them up' },
  memory: { label: 'Memory', hint: 'Share a memory' },
  advice: { label: 'Advice', hint: 'Pass on what you have learned' },
  care: { label: 'Care', hint: 'Let them know you care' },
};

export const GENERIC_LETTER = `My dear child,

There are so many things I want to say to you, and I'm not always sure how to say them. So I'm writing them down, to keep here for you.

You are loved. Completely, unconditionally, from the moment you came into this world. Nothing you do and nothing that happens between us could ever change that.

I think about you every day. I'm proud of who you are and excited for who you're becoming. Whatever paths life takes you down, I hope you'll always know that you have someone in your corner.

If you ever need me, I'm here.

With all my love, always,
Dad`;

export const LETTER_TEMPLATES: Record<LetterEmotion, Record<LetterPurpose, string>> = {
  love: {
    apology: `My dear child,

There is something I have wanted to say to you for a long time, and I want you to hear it plainly: I am sorry. I am sorry for the times I wasn't there when you needed me, for the moments I missed, and for any way my choices made your world feel less safe.

None of it was ever because I loved you less. You have been the brightest part of my life from the first day I held you, and that has never changed, not for a single hour.

I can't go back and undo what happened. What I can do is keep showing up, keep listening, and keep loving you with everything I have. You don't owe me forgiveness. But I hope that one day, when you read this, you'll know that my love for you was always there, even when I didn't show it well enough.

With all my love, always,
Dad`,
    encouragement: `My dear child,

I want you to know something that is true today and will still be true on your hardest day: I believe in you.

I have watched you grow, stumble, get back up and keep going. I have seen your kindness when nobody was looking and your courage when you were scared. Those things are who you are, and nothing and no one can take them away.

There will be days when the road feels too steep, when people doubt you, or when you doubt yourself. On those days, remember that you come from love. You don't have to be perfect, and you don't have to do it all at once. One small step, then another, is how every mountain is climbed.

Whatever you choose to become, I am proud of you already. I always will be.

Love you more than words can hold,
Dad`,
    memory: `My dear child,

Some nights I close my eyes and I'm right back there: you on my shoulders, your hands in my hair, laughing at something only the two of us found funny. I can still hear that laugh.

I keep those moments like treasures. The first time you rode a bike without me holding on. The songs we sang badly in the car. The way you fell asleep halfway through a story and I'd finish it anyway, just to be sure you'd get the ending.

Life has changed since then, and we don't always get to make new memories as often as I'd like. But the ones we made are real, and they are ours. Nobody can take them from either of us.

I hope that when you think back, you remember how loved you were in every one of them. Because you were. You still are.

All my love,
Dad`,
    advice: `My dear child,

I don't have all the answers. Nobody does. But there are a few things I have learned the hard way, and I'd like to hand them to you so your road can be a little easier than mine.

Be kind, especially when it costs you something. Tell the truth, even when your voice shakes. Choose friends who make you braver, not smaller. When you get something wrong, say sorry quickly and mean it. Look after your body and your mind; both have to carry you a long way.

And love people out loud. Don't wait for the perfect moment to tell someone they matter to you. It rarely comes.

Above all, remember that you are worth loving exactly as you are. Everything else you'll figure out as you go. I have total faith in you.

With love and pride,
Dad`,
    care: `My dear child,

I just wanted to write to you today, for no big reason except that I love you and I've been thinking about you.

Are you eating properly? Sleeping enough? Are the people around you treating you the way you deserve? I find myself wondering about the small things: what made you laugh this week, what's been worrying you, what you're looking forward to.

If life is heavy right now, please don't carry it alone. You can always come to me, with anything, at any time, and I will listen without judging. There is nothing you could tell me that would make me love you less.

Look after yourself. Be gentle with yourself on the hard days. And know that somewhere, someone is always on your side.

Sending you the biggest hug,
Dad`,
  },
  sad: {
    apology: `My dear child,

This letter is hard to write, and I've started it more times than I can count. I am sorry. I'm sorry for the hurt I caused, for the promises I didn't keep, and for the distance that grew between us.

I think about it often, and it brings me real sadness to know that you may have felt let down or alone because of me. You deserved better, and I want you to know that I understand that now.

I'm not writing this to ask you for anything. I'm writing it because you deserve to hear it, in my own words, with no excuses attached.

If you ever want to talk, I'll be here, ready to listen to whatever you need to say, even the hard parts. And if you're not ready, I'll wait. My love for you has never gone anywhere.

With a heavy heart and all my love,
Dad`,
    encouragement: `My dear child,

I'm writing this on a day when I'm feeling sad, and I want to be honest with you about that. Grown-ups have hard days too. But even on days like this, there's one thing that lifts me: thinking of you.

If you are going through something painful right now, I want you to know that sadness is not weakness. It means you care deeply, and that is one of the best things about you. Let yourself feel it, and then, when you're ready, let yourself hope again.

Hard seasons end. I have seen it in my own life more times than I can tell you. The sun comes back, slowly at first, and then all at once.

You are stronger than you know, and you are never as alone as you feel. Hold on. Better days are coming, and I'll be cheering for you through every one of them.

Love always,
Dad`,
    memory: `My dear child,

Today I found myself missing you more than usual, so I did what I often do: I went back through my memories of us.

I remembered the way you used to run to the door when I came home. The Saturday mornings with pancakes that never came out round. The questions you asked about the stars, and how I made up half the answers because I didn't want the conversation to end.

It makes me a little sad that time moved so fast, and that I can't hold those days in my hands again. But mostly it makes me grateful that I got to live them with you.

I want you to have these memories too, written down, so they don't fade. They are proof of something important: you were loved, completely, from the very beginning.

Missing you and loving you,
Dad`,
    advice: `My dear child,

I've been through some sad times in my life, and I've learned a few things from them that I hope might help you one day.

First, it's okay not to be okay. You don't have to pretend. Tell someone you trust how you really feel; saying it out loud makes it lighter.

Second, be patient with yourself. Healing is not a straight line. Some days you'll feel fine, and some days the sadness will come back for a visit. That doesn't mean you're going backwards.

Third, look for small good things: a walk in fresh air, a song you love, a friend's voice. They won't fix everything, but they add up.

And finally, ask for help when you need it. Asking is brave, not weak.

I'm always here, whenever you need me.

With love,
Dad`,
    care: `My dear child,

I've been feeling low lately, and when that happens my thoughts always turn to you, and to whether you are alright.

I hope you are warm and safe. I hope there are people near you who make you smile. I hope you're sleeping well and that nothing is weighing too heavily on your heart.

Distance and circumstances can't stop me from caring about you every single day. I wonder how school or work is going, what you're excited about, what's been hard. I wish I could be there for all of it.

If you are ever sad too, please know you can reach out to me. We can be sad together, and maybe that will make it a little easier for both of us.

Take good care of yourself. You matter so much more than you know.

Thinking of you always,
Dad`,
  },
  frustrated: {
    apology: `My dear child,

I need to own something. There have been times when I let frustration get the better of me: times I raised my voice, lost my patience, or said things I didn't mean. I am truly sorry.

Those moments were about my own stress and struggles. They were never your fault, and you never deserved to be on the receiving end of them.

I'm learning to handle my feelings better: to stop, breathe, and think before I speak. I'm not perfect at it yet, but I'm working on it, because you deserve a parent who makes you feel safe, not on edge.

If anything I said or did ever hurt you, I hope you'll tell me one day, so I can listen properly and make it right as best I can.

You are loved, always, even on my worst days. Especially then.

I'm sorry, and I love you,
Dad`,
    encouragement: `My dear child,

Some days are just frustrating. Things don't go the way you planned, people don't understand you, and no matter how hard you try, it feels like you're getting nowhere. I know that feeling well.

Here's what I want you to remember: frustration usually means you care about something and you're pushing against a wall that won't move yet. That's not failure. That's effort.

Take a break when you need one. Walk away, breathe, come back with fresh eyes. Sometimes the answer appears the moment you stop forcing it. And sometimes the wall was never yours to climb, and it's wise to choose a different path.

You have a stubborn, brilliant spirit. Use it well. Don't give up on the things that matter to you.

I'm proud of you for trying, every single time.

Keep going,
Dad`,
    memory: `My dear child,

I've been frustrated lately with how little time we get together, and with things that are out of my hands. So tonight I'm choosing to remember instead.

I remember the afternoon we tried to build a shelf and it came out so crooked that we laughed until we couldn't breathe, and then put your books on it anyway. I remember you teaching me a game I never quite understood, and being so patient with me.

Those memories remind me that even when things don't go to plan, good things can still come out of them. The shelf was a disaster. The afternoon was perfect.

Whatever is happening around us, those moments belong to us. I hold on to them when things feel hard, and I hope you can too.

With love, and a crooked shelf's worth of laughter,
Dad`,
    advice: `My dear child,

Frustration is something everyone faces, and I've had more than my share. Here is what I've learned about handling it, for whenever you might need it.

Don't make big decisions while you're angry. Give it a night. Most things look different in the morning.

Say what you need, clearly and calmly. People can't read your mind, and shouting makes them stop listening.

Move your body. A walk, a run, even tidying your room can burn off what's boiling inside.

Ask yourself: what is actually in my control here? Put your energy there, and let the rest go as best you can.

And when you do lose your temper, because everyone does, apologise and try again. That's what the people who get it right actually do.

You're going to handle life so well. I just know it.

Love,
Dad`,
    care: `My dear child,

Things have been frustrating on my side lately, and it's made me realise how much I want to make sure you're okay.

If you're feeling frustrated too, with school, with friends, with family, with me, that's alright. Your feelings make sense, and you're allowed to have them. You don't have to keep them bottled up.

Please look after yourself. Get some rest, eat something good, spend time with people who are kind to you. Do something just because you enjoy it.

Whatever is going on around us, my care for you is steady. It doesn't change with my mood or with circumstances. You can count on it.

If you ever want to talk, or vent, or just sit together in silence, I'm here.

Caring for you always,
Dad`,
  },
  grateful: {
    apology: `My dear child,

I'm so grateful for you, and because I am, I owe you an apology.

I'm sorry for the times I took our time together for granted, when I was distracted, busy, or not fully present. You deserved my full attention, and I didn't always give it.

Looking back, I see how patient you were with me, how you kept loving me even when I fell short. That is a gift I didn't always notice, and I want you to know that I see it now.

Thank you for your forgiveness, spoken or unspoken. Thank you for being you. I promise to keep trying to be the parent you deserve, and to cherish every moment I have with you.

With gratitude and love,
Dad`,
    encouragement: `My dear child,

I want to thank you. Just by being who you are, you have made my life richer than I ever imagined it could be.

You have taught me patience, humour and a kind of love I didn't know existed. I'm grateful for every question you asked, every hug, every time you made me laugh when I needed it most.

I'm telling you this because I want you to know how much you bring to the world. When you doubt yourself, remember that you have already changed at least one life completely: mine.

Keep being curious. Keep being kind. Keep being brave. The world needs exactly what you have to give.

Thank you for being my child. It's the greatest honour of my life.

With all my gratitude and love,
Dad`,
    memory: `My dear child,

I was thinking today about how lucky I am, and all my reasons lead back to you.

I'm grateful for the day you were born and the way the whole world seemed to go quiet when I first saw you. For the first word you said, the first step you took, and the thousand small moments in between that nobody else saw but me.

I'm grateful for birthdays and ordinary Tuesdays alike, for every car journey and every silly song, for bedtime stories and the serious talks that came later.

These memories are some of the greatest gifts I've ever been given. I wanted to write them down so you know they were treasured, every single one.

Thank you for all of it. Thank you for you.

With a full and grateful heart,
Dad`,
    advice: `My dear child,

If I could give you just one habit to carry through life, it would be gratitude.

Every day, try to notice three good things, however small: a kind word, a warm meal, sunshine through the window. It trains your heart to see the good, even on hard days.

Thank the people who help you. Teachers, friends, strangers who hold a door. It costs nothing and means everything.

Be grateful for your mistakes too; they are how you learn. And be grateful for your body and mind, and look after them.

I'm grateful every single day that I get to be your parent. It has taught me more than anything else in my life.

With thankfulness and love,
Dad`,
    care: `My dear child,

I'm writing simply to say thank you for being in my life, and to remind you to take care of yourself.

You bring me so much joy, more than you probably realise. Because I'm so grateful for you, I want you to be well, in every way.

Please be kind to yourself. Rest when you're tired. Reach out when you're lonely. Celebrate your wins, even the small ones. Surround yourself with people who see how wonderful you are.

I think about you every day and I'm grateful every time I do. Whatever you're facing, you don't face it alone.

With love and gratitude,
Dad`,
  },
  unsure: {
    apology: `My dear child,

I'm not entirely sure how to start this letter, and I'm not sure I'll find all the right words. But I know I want to say sorry.

Maybe you know exactly what for, or maybe it's a feeling you've carried without a name. Either way, I'm sorry for anything I did, or didn't do, that made you feel unloved, unheard, or unsure of my place in your life.

I don't always know the right thing to say or do. Being a parent doesn't come with instructions, and I've made mistakes. But one thing I've never been unsure about is how much I love you.

If you'd like to talk about any of this, I'm ready to listen. If you need time, I understand that too.

With humility and love,
Dad`,
    encouragement: `My dear child,

I'm not always sure what the future holds, for you or for me. But I am sure about you.

If you're feeling uncertain right now, about who you are, what you want, or where you're heading, that's completely normal. Some of the best things in life come from not knowing and trying anyway.

You don't need to have it all figured out. Nobody does, whatever they tell you. Take one step, see how it feels, and adjust. That's how everyone finds their way.

Trust yourself. You are smarter, stronger and kinder than you give yourself credit for. Whatever path you choose, I'll be proud of you.

Believing in you always,
Dad`,
    memory: `My dear child,

I'm not sure why, but a memory of us came back to me today, and I wanted to share it with you before it slipped away.

We were sitting together one evening, not doing anything special. You leaned against me and told me about your day, and for a little while everything felt simple and right.

I don't know if you remember that moment. Maybe it was too ordinary to stick. But it stayed with me, because it was one of the times I felt most like your dad: just being there, listening.

I'm not sure what the years ahead will bring for us. But I hope there are more evenings like that one. And if there aren't as many as I'd like, I hope you'll know how much each one meant to me.

With love,
Dad`,
    advice: `My dear child,

I'll be honest: I'm not sure I have the perfect advice for you. But I'd like to share what has helped me when I felt unsure.

It's okay to say "I don't know". It's the beginning of learning, not a failure.

When you're facing a choice, ask yourself which option you'll be proud of in five years. That usually points the way.

Listen to people who have been where you're going, but remember the final decision is yours. Your life should feel like your own.

Don't be afraid to change your mind. Growing means updating what you believe.

And when in doubt, choose kindness, for others and for yourself. I've never once regretted it.

Whatever you decide, I'm on your side.

With love and faith in you,
Dad`,
    care: `My dear child,

I'm not always sure how to show it in the right way, but I care about you more than anything in this world.

I wonder how you're doing, really doing, underneath the everyday. I wonder if you're happy, if you're safe, if you have what you need. Sometimes I don't know how to ask, or whether you'd want me to.

So I'll just say it here: I'm always available. If you want to talk, about anything at all, I'm here. If you need help, I'll do whatever I can. If you simply want to know that someone loves you unconditionally, I do.

Please take care of yourself. You are so precious to me.

With all my heart,
Dad`,
  },
};

/** The letter for an emotion and a purpose; the generic letter when either is missing or unknown. */
export function letterTemplate(emotion: string | null | undefined, purpose: string | null | undefined): string {
  const byEmotion = emotion && Object.hasOwn(LETTER_TEMPLATES, emotion) ? LETTER_TEMPLATES[emotion as LetterEmotion] : undefined;
  const text = byEmotion && purpose && Object.hasOwn(byEmotion, purpose) ? byEmotion[purpose as LetterPurpose] : undefined;
  return text ?? GENERIC_LETTER;
}

/** "AI-Assisted Letter - {date}" (spec, section 4), the date in the app's one date style ("5 December 2026"). */
export function wizardLetterTitle(date: Date = new Date()): string {
  return `AI-Assisted Letter - ${formatDate(date)}`;
}

package dev.openrag.memory;

import java.util.List;

/**
 * Pairs of memories of one author, the older first, in English, German, Spanish, French and Chinese: an update (the
 * newer one gives another value of the same fact) or another fact of the same subject (the two share a subject word
 * and nothing else is replaced). Written for the suggestion rule ({@link FactChanges#byMeaning}), apart from the
 * scenario suite and {@code FactChangesTest}.
 */
final class SuggestionPairs {

    record Pair(String language, boolean update, String older, String newer) {
    }

    private static Pair u(String language, String older, String newer) {
        return new Pair(language, true, older, newer);
    }

    private static Pair s(String language, String older, String newer) {
        return new Pair(language, false, older, newer);
    }

    static final List<Pair> ALL = List.of(
            u("en", "My gym membership is at FitLife on Baker Street.", "I cancelled FitLife and joined the climbing gym near the station."),
            u("en", "Our sprint planning happens on Monday mornings.", "Sprint planning was moved to Wednesday afternoons."),
            u("en", "The team's main repository lives on GitLab.", "The main repository is hosted on GitHub these days."),
            u("en", "Maria's phone number is 555-0134.", "Maria got a new phone number: 555-0199."),
            u("en", "I commute to the office by bus.", "I cycle to the office every day since spring."),
            u("en", "The project deadline is March 15.", "The project deadline was pushed back to April 30."),
            s("en", "Maria's phone number is 555-0134.", "Maria is training for a marathon."),
            s("en", "Our sprint planning happens on Monday mornings.", "Our sprint retrospectives are usually very short."),
            s("en", "The main repository uses trunk-based development.", "The main repository has about 40 contributors."),
            s("en", "Leo studies physics at Oxford.", "Leo has a younger sister called Mia."),
            s("en", "The billing service is written in Kotlin.", "The billing service sends invoices every Friday night."),
            s("en", "I commute to the office by bus.", "The office has a rooftop terrace."),

            u("de", "Unser Team trifft sich dienstags zum Standup.", "Das Standup des Teams findet ab sofort donnerstags statt."),
            u("de", "Ich fahre einen alten Opel Corsa.", "Den Opel habe ich verkauft, ich fahre einen Skoda."),
            u("de", "Mein Hausarzt ist Dr. Weber.", "Ich habe einen neuen Hausarzt: Dr. Schulz in Pankow."),
            u("de", "Die Miete für unsere Wohnung beträgt 900 Euro.", "Die Miete wurde auf 980 Euro erhöht."),
            u("de", "Lena arbeitet als Lehrerin in Köln.", "Lena hat den Schuldienst verlassen und arbeitet als Übersetzerin."),
            u("de", "Unser Newsletter erscheint einmal im Monat.", "Der Newsletter kommt inzwischen jede Woche."),
            s("de", "Lena arbeitet als Lehrerin in Köln.", "Lena spielt seit Jahren Geige."),
            s("de", "Mein Hausarzt ist Dr. Weber.", "Mein Hausarzt hat mittwochs nachmittags geschlossen."),
            s("de", "Unser Team trifft sich dienstags zum Standup.", "Unser Team hat zwei neue Entwickler eingestellt."),
            s("de", "Ich fahre einen alten Opel Corsa.", "Ich fahre im Sommer gern an die Ostsee."),
            s("de", "Die Wohnung hat drei Zimmer und einen Balkon.", "Die Wohnung liegt im vierten Stock."),
            s("de", "Markus wohnt in Leipzig.", "Markus ist allergisch gegen Katzen."),

            u("es", "Mi médico de cabecera es el doctor Gómez.", "Cambié de médico de cabecera: me atiende la doctora Pérez."),
            u("es", "Trabajo en una agencia de publicidad en Valencia.", "Dejé la agencia y trabajo como diseñadora freelance."),
            u("es", "La reunión semanal del equipo es los lunes.", "La reunión del equipo pasó a los jueves."),
            u("es", "Lucía vive en Sevilla.", "Lucía se mudó a Bilbao el año pasado."),
            u("es", "Nuestro servidor de correo es Exchange.", "El servidor de correo es Gmail de Google Workspace."),
            u("es", "Pago 40 euros al mes por internet.", "La tarifa de internet subió a 55 euros al mes."),
            s("es", "Lucía vive en Sevilla.", "Lucía toca el piano desde niña."),
            s("es", "Trabajo en una agencia de publicidad en Valencia.", "La agencia tiene una oficina muy luminosa."),
            s("es", "La reunión semanal del equipo es los lunes.", "El equipo usa Jira para las tareas."),
            s("es", "Mi médico de cabecera es el doctor Gómez.", "El doctor Gómez tiene dos hijos."),
            s("es", "Nuestro servidor de correo es Exchange.", "El servidor de correo guarda los mensajes durante un año."),
            s("es", "Pablo estudia medicina en Salamanca.", "Pablo corre una maratón cada otoño."),

            u("fr", "Mon coiffeur est le salon Martin, rue de la Paix.", "J'ai changé de coiffeur, je vais chez Sophie à Belleville."),
            u("fr", "Claire travaille chez Renault à Boulogne.", "Claire a quitté Renault, elle travaille chez Airbus à Toulouse."),
            u("fr", "Notre réunion d'équipe a lieu le mardi.", "La réunion d'équipe se tient désormais le vendredi."),
            u("fr", "Je prends le métro pour aller au travail.", "Je vais au travail à vélo depuis le printemps."),
            u("fr", "Le loyer de l'appartement est de 1200 euros.", "Le loyer de l'appartement passe à 1350 euros en janvier."),
            u("fr", "Notre site web tourne sur WordPress.", "Le site web a été refait avec Hugo."),
            s("fr", "Claire travaille chez Renault à Boulogne.", "Claire fait du yoga tous les matins."),
            s("fr", "Notre réunion d'équipe a lieu le mardi.", "Notre équipe compte huit développeurs."),
            s("fr", "Le loyer de l'appartement est de 1200 euros.", "L'appartement a une grande cuisine."),
            s("fr", "Mon coiffeur est le salon Martin, rue de la Paix.", "Mon coiffeur est très bavard."),
            s("fr", "Notre site web tourne sur WordPress.", "Notre site web reçoit surtout des visiteurs du Canada."),
            s("fr", "Hugo habite à Marseille.", "Hugo a peur des chiens."),

            u("zh", "我的牙医是赵医生，诊所在解放路。", "我换了牙医，现在去李医生的诊所。"),
            u("zh", "我们每周一开例会。", "例会改到每周四下午了。"),
            u("zh", "小王在阿里巴巴上班。", "小王跳槽去了腾讯。"),
            u("zh", "我每天坐地铁上班。", "我最近改成骑自行车上班。"),
            u("zh", "我们公司的网站用的是WordPress。", "公司网站已经换成了Hugo。"),
            u("zh", "房租每月三千元。", "房租涨到了每月三千五。"),
            s("zh", "小王在阿里巴巴上班。", "小王喜欢打篮球。"),
            s("zh", "我们每周一开例会。", "我们的例会通常很短。"),
            s("zh", "我的牙医是赵医生，诊所在解放路。", "赵医生有两个孩子。"),
            s("zh", "我们公司的网站用的是WordPress。", "我们公司有两百名员工。"),
            s("zh", "这套房子的房租每月三千元。", "这套房子有一个很大的阳台。"),
            s("zh", "李娜住在成都。", "李娜会弹钢琴。"));

    private SuggestionPairs() {
    }
}

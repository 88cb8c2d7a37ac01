// Runs after the consumer build (the invoker's post-build hook): false or an exception fails the outer build.
// 1. The program ran on the module path and printed its result (it exits non-zero otherwise, which fails earlier).
def log = new File(basedir, 'build.log').text
assert log.contains('tickwheel consumer check passed: scheduled=2 fired=1 cancelled=1 pending=0 lateness.count=1')

// 2. Every published POM, as installed (so as it would be deployed), carries what Maven Central requires and stands
//    alone: no parent to fetch, no property left to resolve. Each jar module built its sources and javadoc jars (the
//    invoker installs main artifacts only, so those are looked for in the module's target/), and its javadoc has
//    the module's page (module-info) and the package's page (package-info, the overview).
def repo = new File(localRepositoryPath, 'dev/tickwheel')
def published = ['tickwheel': 'jar', 'tickwheel-netty': 'jar', 'tickwheel-micrometer': 'jar', 'tickwheel-bom': 'pom']
def modules = [
    'tickwheel'           : ['wheel', 'dev.tickwheel', 'dev/tickwheel'],
    'tickwheel-netty'     : ['integrations/netty', 'dev.tickwheel.netty', 'dev/tickwheel/netty'],
    'tickwheel-micrometer': ['integrations/micrometer', 'dev.tickwheel.micrometer', 'dev/tickwheel/micrometer']]
def names = [] as Set
def descriptions = [] as Set
published.each { artifact, packaging ->
    def dir = new File(repo, "${artifact}/${tickwheelVersion}")
    def pomFile = new File(dir, "${artifact}-${tickwheelVersion}.pom")
    assert pomFile.isFile() : "not installed: ${pomFile}"
    def text = pomFile.text
    assert !text.contains('${') : "${artifact}: an unresolved property in the published POM"
    def pom = new groovy.xml.XmlSlurper().parseText(text)
    assert pom.parent.size() == 0 : "${artifact}: the published POM has a parent"
    ['name', 'description', 'url'].each { element ->
        assert pom."${element}".text().trim() : "${artifact}: no <${element}>"
    }
    names << pom.name.text().trim()
    descriptions << pom.description.text().trim()
    assert pom.licenses.license.name.text() == 'Apache-2.0' : "${artifact}: no Apache-2.0 licence"
    assert pom.licenses.license.url.text().startsWith('https://') : "${artifact}: no licence url"
    assert pom.developers.developer.name.text().trim() : "${artifact}: no developer"
    assert pom.scm.url.text().trim() && pom.scm.connection.text().trim() : "${artifact}: no scm"
    if (packaging == 'jar') {
        assert new File(dir, "${artifact}-${tickwheelVersion}.jar").isFile() : "${artifact}: jar not installed"
        def (folder, module, pkg) = modules[artifact]
        def target = new File(rootDirectory, "${folder}/target")
        assert new File(target, "${artifact}-${tickwheelVersion}-sources.jar").isFile() : "${artifact}: no sources jar"
        def javadoc = new File(target, "${artifact}-${tickwheelVersion}-javadoc.jar")
        assert javadoc.isFile() : "${artifact}: no javadoc jar"
        new java.util.zip.ZipFile(javadoc).withCloseable { zip ->
            ["${module}/module-summary.html", "${module}/${pkg}/package-summary.html", 'index.html'].each { page ->
                assert zip.getEntry(page) != null : "${artifact}: the javadoc jar has no ${page}"
            }
        }
    } else {
        def managed = pom.dependencyManagement.dependencies.dependency.collect { it.artifactId.text() } as Set
        assert managed == ['tickwheel', 'tickwheel-netty', 'tickwheel-micrometer'] as Set : "BOM manages ${managed}"
        pom.dependencyManagement.dependencies.dependency.each {
            assert it.version.text() == tickwheelVersion : "BOM: ${it.artifactId} at ${it.version}"
        }
    }
}
// A module without a name or description of its own would inherit the parent's: each must have its own.
def parent = new groovy.xml.XmlSlurper().parse(new File(rootDirectory, 'pom.xml'))
names << parent.name.text().trim()
descriptions << parent.description.text().trim()
assert names.size() == published.size() + 1 : "a published POM has the parent's or another's name: ${names}"
assert descriptions.size() == published.size() + 1 : "a published POM has the parent's or another's description"
println "Published POMs checked: ${published.keySet()}"
return true

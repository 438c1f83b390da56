package cmd

import (
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// The fields of deploy/k8s/sandsh-mcp.yaml that the test reads; decoding
// with KnownFields refuses any other, so a field the manifest gains is
// added here, where it is checked.
type k8sObject[Spec any] struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name        string            `yaml:"name"`
		Labels      map[string]string `yaml:"labels"`
		Annotations map[string]string `yaml:"annotations"`
	} `yaml:"metadata"`
	Spec Spec `yaml:"spec"`
}

type k8sDeploymentSpec struct {
	Replicas int `yaml:"replicas"`
	Selector struct {
		MatchLabels map[string]string `yaml:"matchLabels"`
	} `yaml:"selector"`
	Template struct {
		Metadata struct {
			Labels map[string]string `yaml:"labels"`
		} `yaml:"metadata"`
		Spec struct {
			TerminationGracePeriodSeconds int            `yaml:"terminationGracePeriodSeconds"`
			Containers                    []k8sContainer `yaml:"containers"`
			Volumes                       []struct {
				Name                  string    `yaml:"name"`
				EmptyDir              *struct{} `yaml:"emptyDir"`
				PersistentVolumeClaim *struct {
					ClaimName string `yaml:"claimName"`
				} `yaml:"persistentVolumeClaim"`
			} `yaml:"volumes"`
		} `yaml:"spec"`
	} `yaml:"template"`
}

type k8sServiceSpec struct {
	Selector map[string]string `yaml:"selector"`
	Ports    []struct {
		Name       string `yaml:"name"`
		Port       int    `yaml:"port"`
		TargetPort string `yaml:"targetPort"`
	} `yaml:"ports"`
}

type k8sIngressSpec struct {
	IngressClassName string `yaml:"ingressClassName"`
	Rules            []struct {
		Host string `yaml:"host"`
		HTTP struct {
			Paths []struct {
				Path     string `yaml:"path"`
				PathType string `yaml:"pathType"`
				Backend  struct {
					Service struct {
						Name string `yaml:"name"`
						Port struct {
							Name string `yaml:"name"`
						} `yaml:"port"`
					} `yaml:"service"`
				} `yaml:"backend"`
			} `yaml:"paths"`
		} `yaml:"http"`
	} `yaml:"rules"`
}

type k8sContainer struct {
	Name  string   `yaml:"name"`
	Image string   `yaml:"image"`
	Args  []string `yaml:"args"`
	Env   []struct {
		Name      string `yaml:"name"`
		ValueFrom struct {
			SecretKeyRef struct {
				Name string `yaml:"name"`
				Key  string `yaml:"key"`
			} `yaml:"secretKeyRef"`
		} `yaml:"valueFrom"`
	} `yaml:"env"`
	Ports []struct {
		Name          string `yaml:"name"`
		ContainerPort int    `yaml:"containerPort"`
	} `yaml:"ports"`
	ReadinessProbe k8sProbe `yaml:"readinessProbe"`
	LivenessProbe  k8sProbe `yaml:"livenessProbe"`
	Resources      struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	} `yaml:"resources"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	} `yaml:"volumeMounts"`
	SecurityContext struct {
		RunAsNonRoot             bool `yaml:"runAsNonRoot"`
		RunAsUser                int  `yaml:"runAsUser"`
		AllowPrivilegeEscalation bool `yaml:"allowPrivilegeEscalation"`
		ReadOnlyRootFilesystem   bool `yaml:"readOnlyRootFilesystem"`
		Capabilities             struct {
			Drop []string `yaml:"drop"`
		} `yaml:"capabilities"`
	} `yaml:"securityContext"`
}

type k8sProbe struct {
	HTTPGet struct {
		Path string `yaml:"path"`
		Port string `yaml:"port"`
	} `yaml:"httpGet"`
	PeriodSeconds    int `yaml:"periodSeconds"`
	FailureThreshold int `yaml:"failureThreshold"`
}

// decodeStrict decodes one YAML document into v, refusing unknown
// fields.
func decodeStrict(doc string, v any) error {
	dec := yaml.NewDecoder(strings.NewReader(doc))
	dec.KnownFields(true)
	return dec.Decode(v)
}

// TestK8sManifest checks deploy/k8s/sandsh-mcp.yaml without a cluster:
// its documents decode strictly; the container's args parse as real
// `sandsh mcp` flags (the cobra command itself) and their values are
// accepted; the probes ask /healthz on the container's port; the
// non-loopback address has the token from a secret; the Service and the
// Ingress point at what exists; the pod's grace period outlasts sandsh's.
func TestK8sManifest(t *testing.T) {
	data, err := os.ReadFile("../deploy/k8s/sandsh-mcp.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var dep k8sObject[k8sDeploymentSpec]
	var svc k8sObject[k8sServiceSpec]
	var ing k8sObject[k8sIngressSpec]
	kinds := map[string]any{"Deployment": &dep, "Service": &svc, "Ingress": &ing}
	for _, doc := range strings.Split(string(data), "\n---\n") {
		var head struct{ Kind string }
		if err := yaml.Unmarshal([]byte(doc), &head); err != nil {
			t.Fatal(err)
		}
		v, ok := kinds[head.Kind]
		if !ok {
			t.Fatalf("a %q in the manifest: the test does not know it", head.Kind)
		}
		delete(kinds, head.Kind)
		if err := decodeStrict(doc, v); err != nil {
			t.Fatalf("%s: %v", head.Kind, err)
		}
	}
	if len(kinds) != 0 {
		t.Fatalf("missing: %v", kinds)
	}
	if dep.APIVersion != "apps/v1" || svc.APIVersion != "v1" || ing.APIVersion != "networking.k8s.io/v1" {
		t.Fatalf("versions: %s %s %s", dep.APIVersion, svc.APIVersion, ing.APIVersion)
	}
	if len(dep.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("containers: %+v", dep.Spec.Template.Spec.Containers)
	}
	c := dep.Spec.Template.Spec.Containers[0]
	labels := dep.Spec.Template.Metadata.Labels
	for k, v := range dep.Spec.Selector.MatchLabels {
		if labels[k] != v {
			t.Errorf("the Deployment's selector %s=%s does not match its pods", k, v)
		}
	}
	for k, v := range svc.Spec.Selector {
		if labels[k] != v {
			t.Errorf("the Service's selector %s=%s does not match the pods", k, v)
		}
	}
	if len(svc.Spec.Selector) == 0 {
		t.Error("the Service selects nothing")
	}

	// The args, through sandsh's own command.
	if len(c.Args) == 0 || c.Args[0] != "mcp" {
		t.Fatalf("args: %v", c.Args)
	}
	root := newRootCmd(IO{Getenv: func(string) string { return "" }, Getwd: os.Getwd})
	mcpCmd, rest, err := root.Find(c.Args)
	if err != nil || mcpCmd.Name() != "mcp" {
		t.Fatalf("the args' command: %v %v", mcpCmd, err)
	}
	if err := mcpCmd.ParseFlags(rest); err != nil {
		t.Fatalf("the args are not sandsh mcp's flags: %v", err)
	}
	if args := mcpCmd.Flags().Args(); len(args) != 0 {
		t.Errorf("stray args: %v", args)
	}
	flag := func(name string) string { return mcpCmd.Flags().Lookup(name).Value.String() }
	host, port, err := net.SplitHostPort(flag("http"))
	if err != nil {
		t.Fatalf("--http %q: %v", flag("http"), err)
	}
	portNames := map[string]int{}
	for _, p := range c.Ports {
		portNames[p.Name] = p.ContainerPort
	}
	if strconv.Itoa(portNames["http"]) != port {
		t.Errorf("--http port %s is not the container port %v", port, portNames)
	}
	// Beyond loopback the server refuses to start without a token.
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		ok := false
		for _, e := range c.Env {
			ok = ok || (e.Name == "SANDSH_MCP_TOKEN" && e.ValueFrom.SecretKeyRef.Name != "" && e.ValueFrom.SecretKeyRef.Key != "")
		}
		if !ok && flag("token-file") == "" {
			t.Errorf("--http %s without a token from a secret", flag("http"))
		}
	}
	grace, err := time.ParseDuration(flag("shutdown-grace"))
	if err != nil || time.Duration(dep.Spec.Template.Spec.TerminationGracePeriodSeconds)*time.Second <= grace+2*time.Second {
		t.Errorf("terminationGracePeriodSeconds %d does not outlast --shutdown-grace %s", dep.Spec.Template.Spec.TerminationGracePeriodSeconds, flag("shutdown-grace"))
	}
	if n, err := parseBytes(flag("max-memory")); err != nil || n <= 0 {
		t.Errorf("--max-memory %s: %v", flag("max-memory"), err)
	}

	// --state-dir is a mount of a claim the replicas share.
	shared := false
	for _, m := range c.VolumeMounts {
		for _, v := range dep.Spec.Template.Spec.Volumes {
			if m.MountPath == flag("state-dir") && v.Name == m.Name && v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName != "" {
				shared = true
			}
		}
	}
	if flag("state-dir") != "" && !shared {
		t.Errorf("--state-dir %s is not a mounted claim the replicas share", flag("state-dir"))
	}
	for name, p := range map[string]k8sProbe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe} {
		if p.HTTPGet.Path != "/healthz" || portNames[p.HTTPGet.Port] == 0 || p.PeriodSeconds <= 0 {
			t.Errorf("%s probe: %+v", name, p)
		}
	}
	if !c.SecurityContext.RunAsNonRoot || c.SecurityContext.AllowPrivilegeEscalation || len(c.SecurityContext.Capabilities.Drop) == 0 {
		t.Errorf("securityContext: %+v", c.SecurityContext)
	}
	// The Service targets the container's port, the Ingress the Service
	// and /mcp, hashing on a header.
	if len(svc.Spec.Ports) != 1 || portNames[svc.Spec.Ports[0].TargetPort] == 0 {
		t.Errorf("the Service's ports: %+v", svc.Spec.Ports)
	}
	if len(ing.Spec.Rules) != 1 || len(ing.Spec.Rules[0].HTTP.Paths) != 1 {
		t.Fatalf("the Ingress's rules: %+v", ing.Spec.Rules)
	}
	path := ing.Spec.Rules[0].HTTP.Paths[0]
	if path.Path != "/mcp" || path.Backend.Service.Name != svc.Metadata.Name || path.Backend.Service.Port.Name != svc.Spec.Ports[0].Name {
		t.Errorf("the Ingress's backend: %+v", path)
	}
	if h := ing.Metadata.Annotations["nginx.ingress.kubernetes.io/upstream-hash-by"]; !strings.HasPrefix(h, "$http_") {
		t.Errorf("the Ingress hashes on %q, not a request header", h)
	}
}
